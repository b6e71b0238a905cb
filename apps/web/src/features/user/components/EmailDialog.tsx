// E-mail preferences (SPEC.md sections 4, 5 and 8): address, terms, newsletter frequency, and the
// offline alerts when the server offers them; after a save Save stays disabled for 60 s, a
// countdown that survives reloads through a stored expiry.
import {
  EMAIL_COOLDOWN_MAX_MS,
  EMAIL_COOLDOWN_MS,
  EMAIL_WRITE_DEBOUNCE_MS,
  NewsletterFrequencySchema,
  PreferencesEmailSchema,
  STORAGE_KEYS,
  TermsAcceptedSchema,
  stripTags,
  type User,
} from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmailField } from '../../../components/EmailField';
import { savePreferences } from '../api/userActions';
import type { Session } from '../../../lib/session';
import { useStoredCountdown } from '../../auth';
import { OfflineAlertsField } from './OfflineAlertsField';

type Frequency = User['newsletterFrequency'];
const FREQUENCIES: { value: Frequency; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'none', label: 'None' },
];

export const EMAIL_SAVED_TEXT = 'Config saved!';

/** A new address is only used for login once the link mailed to it is opened (docs/SECURITY.md). */
export function pendingEmailText(user: Pick<User, 'email' | 'pendingEmail'>): string {
  const until = user.email
    ? ` Until then you log in with ${user.email}; saving ${user.email} again cancels the change.`
    : '';
  return `A confirmation link was sent to ${user.pendingEmail ?? ''}. It becomes your login address once you open that link.${until}`;
}
const SAVE_FAILED_TEXT = 'The preferences could not be saved. Please try again later.'; // ours

interface EmailDialogProps {
  open: boolean;
  onClose(): void;
  user: User;
  userId: string;
  session: Session | null;
  onSaved(user: User): void;
}

export function EmailDialog({ open, onClose, ...rest }: EmailDialogProps) {
  // The cool-down lives outside the dialog body so it keeps running while the dialog is closed.
  const cooldown = useStoredCountdown({
    key: STORAGE_KEYS.emailCooldownExpiry,
    maxAheadMs: EMAIL_COOLDOWN_MAX_MS,
    writeDelayMs: EMAIL_WRITE_DEBOUNCE_MS,
  });
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="email-dialog-title" fullWidth>
      <EmailForm
        {...rest}
        onClose={onClose}
        secondsLeft={cooldown.secondsLeft}
        onSaveDone={() => cooldown.start(EMAIL_COOLDOWN_MS)}
      />
    </Dialog>
  );
}

function EmailForm(
  props: Omit<EmailDialogProps, 'open'> & { secondsLeft: number; onSaveDone(): void },
) {
  const { user, userId, session, onSaved, onClose, secondsLeft, onSaveDone } = props;
  const [email, setEmail] = useState(user.pendingEmail ?? user.email);
  const [terms, setTerms] = useState(user.acceptedTerms);
  const [frequency, setFrequency] = useState<Frequency>(user.newsletterFrequency);
  const [alerts, setAlerts] = useState(user.offlineAlerts ?? null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const emailCheck = PreferencesEmailSchema.safeParse(email);
  const emailError = emailCheck.success ? null : (emailCheck.error.issues[0]?.message ?? null);
  const termsCheck = TermsAcceptedSchema.safeParse(terms || user.acceptedTerms);
  const termsError = termsCheck.success ? null : (termsCheck.error.issues[0]?.message ?? null);
  const disabled = emailError !== null || termsError !== null || secondsLeft > 0 || sending;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (disabled) return;
    setSending(true);
    setResult(null);
    try {
      const saved = await savePreferences(userId, session, {
        email: stripTags(email).trim(),
        acceptedTerms: true,
        newsletterFrequency: NewsletterFrequencySchema.parse(frequency),
        ...(alerts
          ? { offlineAlerts: { enabled: alerts.enabled, delayMinutes: alerts.delayMinutes } }
          : {}),
      });
      onSaved(saved);
      setEmail(saved.pendingEmail ?? saved.email);
      if (saved.offlineAlerts) setAlerts(saved.offlineAlerts);
      setResult({ ok: true, text: EMAIL_SAVED_TEXT });
      onSaveDone();
    } catch (error) {
      console.warn('Saving e-mail preferences failed', error);
      setResult({ ok: false, text: SAVE_FAILED_TEXT });
    } finally {
      setSending(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void save(event)}>
      <DialogTitle id="email-dialog-title">E-mail preferences</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <EmailField
            label="E-mail"
            value={email}
            onChange={setEmail}
            error={emailError}
            hint="Used to log in and for the newsletter."
          />
          {!user.acceptedTerms && (
            <div>
              <FormControlLabel
                control={
                  <Checkbox checked={terms} onChange={(event) => setTerms(event.target.checked)} />
                }
                label={
                  <>
                    I accept the{' '}
                    <Link component={RouterLink} to="/terms" target="_blank">
                      terms and conditions
                    </Link>
                  </>
                }
              />
              {termsError && <FormHelperText error>{termsError}</FormHelperText>}
            </div>
          )}
          <TextField
            select
            label="Newsletter frequency"
            value={frequency}
            onChange={(event) => setFrequency(event.target.value as Frequency)}
          >
            {FREQUENCIES.map((f) => (
              <MenuItem key={f.value} value={f.value}>
                {f.label}
              </MenuItem>
            ))}
          </TextField>
          {alerts && <OfflineAlertsField value={alerts} onChange={setAlerts} />}
          {result && <Alert severity={result.ok ? 'success' : 'error'}>{result.text}</Alert>}
          {user.pendingEmail && <Alert severity="info">{pendingEmailText(user)}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button
          type="submit"
          variant="contained"
          disabled={disabled}
          startIcon={sending ? <CircularProgress size={16} aria-hidden /> : undefined}
        >
          {secondsLeft > 0 ? `Save (${secondsLeft}s)` : 'Save'}
        </Button>
      </DialogActions>
    </form>
  );
}
