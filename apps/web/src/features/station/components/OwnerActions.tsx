// The owner's action bar (SPEC.md sections 2, 4 and 5): Edit station, Operate (not while offline)
// and Delete (only while offline, after confirmation).
import type { StationFull } from '@tinygs/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

export const DELETE_HINT = 'Only inactive stations can be deleted';
export const DELETE_CONFIRM_TEXT = 'This cannot be undone';

interface OwnerActionsProps {
  station: StationFull;
  onEdit(): void;
  onOperate(): void;
  /** Runs the deletion; the dialog closes when it settles. */
  onDelete(): Promise<void>;
}

export function OwnerActions({ station, onEdit, onOperate, onDelete }: OwnerActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const online = station.status !== 0;

  const confirm = async () => {
    setDeleting(true);
    try {
      await onDelete();
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };

  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center' }}
      role="toolbar"
      aria-label="Owner actions"
    >
      <Button size="small" variant="outlined" onClick={onEdit}>
        Edit station
      </Button>
      <Button
        size="small"
        variant="outlined"
        onClick={onOperate}
        disabled={station.status === 0}
        title={station.status === 0 ? 'The station is offline' : undefined}
      >
        Operate
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        onClick={() => setConfirming(true)}
        disabled={online}
        aria-describedby={online ? 'delete-hint' : undefined}
      >
        Delete
      </Button>
      {online && (
        <Typography id="delete-hint" variant="caption" color="text.secondary">
          {DELETE_HINT}
        </Typography>
      )}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        aria-labelledby="delete-station-title"
      >
        <DialogTitle id="delete-station-title">Delete {station.name}?</DialogTitle>
        <DialogContent>
          <DialogContentText>{DELETE_CONFIRM_TEXT}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={deleting}>
            Cancel
          </Button>
          <Button
            color="error"
            variant="contained"
            onClick={() => void confirm()}
            disabled={deleting}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
