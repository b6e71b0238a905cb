// Login request dialog (SPEC.md sections 2, 4, 5 and 8): e-mail, bot check and Request Login with
// the 30 s wait, which survives reloads through a stored expiry.
import {
  LOGIN_SUCCESS_CLOSE_MS,
  LOGIN_WAIT_MS,
  LoginEmailSchema,
  STORAGE_KEYS,
} from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { EmailField } from '../../components/EmailField';
import { LINKS } from '../../config/site';
import { requestWebLogin, webLoginErrorText } from './api/requestWebLogin';
import { BotCheck } from './components/BotCheck';
import { useStoredCountdown } from './lib/storedExpiry';

export interface AuthDialogProps {
  open: boolean;
  onClose: () => void;
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'success'; message: string }
  | { kind: 'error'; message: string };

export function loginEmailError(email: string): string | null {
  const result = LoginEmailSchema.safeParse(email);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

export default function LoginDialog({ open, onClose }: AuthDialogProps) {
  const [email, setEmail] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const [resetSignal, setResetSignal] = useState(0);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const wait = useStoredCountdown({ key: STORAGE_KEYS.loginWaitExpiry, maxAheadMs: LOGIN_WAIT_MS });

  const emailError = loginEmailError(email);
  const formValid = emailError === null && token !== null && email.trim() !== '';
  const disabled =
    !formValid || phase.kind === 'loading' || phase.kind === 'success' || wait.secondsLeft > 0;

  // The parent may pass a new onClose on every render; the 2 s close must not restart for that.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    if (phase.kind !== 'success') return;
    const timer = setTimeout(() => onCloseRef.current(), LOGIN_SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [phase.kind]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (disabled || token === null) return;
    setPhase({ kind: 'loading' });
    try {
      const message = await requestWebLogin(email.trim(), token);
      setPhase({ kind: 'success', message });
      wait.start(LOGIN_WAIT_MS);
    } catch (error) {
      console.warn('Login request failed', error);
      setPhase({ kind: 'error', message: webLoginErrorText(error) });
      // The token is spent: a fresh bot check is needed for the next request.
      setToken(null);
      setResetSignal((n) => n + 1);
    }
  };

  let label = 'Request Login';
  if (wait.secondsLeft > 0) label = `Request Login (${wait.secondsLeft}s)`;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="login-dialog-title"
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="login-dialog-title">Request Weblogin</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>
            Your e-mail address must already be registered through the chat bot before you can
            request a login link. Not registered yet? Follow the{' '}
            <Link href={LINKS.quickStart} target="_blank" rel="noopener noreferrer">
              registration instructions
            </Link>
            .
          </Typography>
          <EmailField
            label="Enter your registered email"
            fullWidth
            value={email}
            onChange={setEmail}
            error={emailError}
          />
          <BotCheck key={resetSignal} onToken={setToken} />
          {phase.kind === 'success' && <Alert severity="success">{phase.message}</Alert>}
          {phase.kind === 'error' && <Alert severity="error">{phase.message}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={disabled}
            startIcon={
              phase.kind === 'loading' ? <CircularProgress size={16} aria-hidden /> : undefined
            }
          >
            {label}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
