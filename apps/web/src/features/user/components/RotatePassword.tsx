// Rotating the account-wide broker password from the credentials dialog. Asks first: stations that
// use the old password are disconnected at once and need the new one (docs/OPERATIONS.md).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ApiError } from '../../../lib/api';
import type { Session } from '../../../lib/session';
import { rotateMqttPassword } from '../api/userActions';
import { mqttCredentialsQueryKey } from '../api/userQueries';
import { ConfirmAlert } from './ConfirmAlert';

export const ROTATE_TEXTS = {
  button: 'Change password',
  warning:
    'A new password replaces this one at once. Stations that use it are disconnected until they are given the new one. Stations set up with a one-time code keep working.',
  done: 'Password changed.',
  failed: 'Could not change the password. Please try again later.',
} as const;

export function RotatePassword(props: { session: Session; userId: string }) {
  const { session, userId } = props;
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const rotate = useMutation({
    mutationFn: () => rotateMqttPassword(userId, session),
    onSuccess: (creds) => {
      queryClient.setQueryData(mqttCredentialsQueryKey(userId, session), creds);
      setAsking(false);
    },
  });
  if (!asking) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Button
          variant="outlined"
          size="small"
          onClick={() => {
            rotate.reset();
            setAsking(true);
          }}
        >
          {ROTATE_TEXTS.button}
        </Button>
        {rotate.isSuccess && (
          <Typography role="status" variant="body2">
            {ROTATE_TEXTS.done}
          </Typography>
        )}
      </Stack>
    );
  }
  const error = rotate.error;
  return (
    <ConfirmAlert
      failed={error !== null}
      actionLabel={ROTATE_TEXTS.button}
      busy={rotate.isPending}
      onCancel={() => setAsking(false)}
      onConfirm={() => rotate.mutate()}
    >
      {error
        ? error instanceof ApiError && error.status === 429
          ? error.message
          : ROTATE_TEXTS.failed
        : ROTATE_TEXTS.warning}
    </ConfirmAlert>
  );
}
