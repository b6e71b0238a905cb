// PLACEHOLDER, to be replaced by the login flow (e-mail field, bot check, Request Login with the
// 30 s wait of SPEC.md sections 2, 4 and 5). Kept minimal on purpose.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { LINKS } from '../../config/site';

export interface AuthDialogProps {
  open: boolean;
  onClose: () => void;
}

export default function LoginDialog({ open, onClose }: AuthDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="login-dialog-title">
      <DialogTitle id="login-dialog-title">Request Weblogin</DialogTitle>
      <DialogContent>
        <Typography>
          The e-mail address must already be registered through the chat bot.{' '}
          <Link href={LINKS.chatGroup} target="_blank" rel="noopener noreferrer">
            Registration instructions
          </Link>
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
