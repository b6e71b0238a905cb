// PLACEHOLDER, to be replaced with the full registration explanation (SPEC.md section 2).
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { LINKS } from '../../config/site';
import type { AuthDialogProps } from './LoginDialog';

export default function RegisterDialog({ open, onClose }: AuthDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="register-dialog-title">
      <DialogTitle id="register-dialog-title">Registration Information</DialogTitle>
      <DialogContent>
        <Typography>
          Registration happens in the{' '}
          <Link href={LINKS.chatGroup} target="_blank" rel="noopener noreferrer">
            community chat group
          </Link>{' '}
          and its personal bot.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
