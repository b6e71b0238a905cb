// The ask-first step of an irreversible account action (changing the broker password, logging out
// everywhere): the warning, or the failure, with Cancel and the action's own button.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';

export function ConfirmAlert(props: {
  failed: boolean;
  actionLabel: string;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
  children: ReactNode;
}) {
  return (
    <Alert
      severity={props.failed ? 'error' : 'warning'}
      action={
        <Stack direction="row" spacing={1}>
          <Button color="inherit" size="small" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button color="inherit" size="small" disabled={props.busy} onClick={props.onConfirm}>
            {props.actionLabel}
          </Button>
        </Stack>
      }
    >
      {props.children}
    </Alert>
  );
}
