// Registration happens only through the chat group and its personal bot (SPEC.md sections 1 and 2).
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
        <Typography sx={{ mb: 1 }}>
          Registration happens in our chat group and its personal bot:
        </Typography>
        <ol>
          <li>
            <Typography>
              Join the{' '}
              <Link href={LINKS.chatGroup} target="_blank" rel="noopener noreferrer">
                community chat group
              </Link>
              .
            </Typography>
          </li>
          <li>
            <Typography>
              Open a private chat with the{' '}
              <Link href={LINKS.chatBot} target="_blank" rel="noopener noreferrer">
                personal bot
              </Link>{' '}
              and send <code>/start</code>. You are registered and the bot tells you your user id.
            </Typography>
          </li>
          <li>
            <Typography>
              Send <code>/weblogin</code> with your e-mail address to register it and receive a
              login link for this web site. Afterwards you can request new links with the Login
              button.
            </Typography>
          </li>
          <li>
            <Typography>
              Send <code>/mqtt</code> to get the MQTT credentials your station needs.
            </Typography>
          </li>
        </ol>
        <Typography variant="body2" color="text.secondary">
          More help is in the{' '}
          <Link href={LINKS.quickStart} target="_blank" rel="noopener noreferrer">
            quick start guide
          </Link>
          .
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
