// Broker credentials for the station firmware (SPEC.md sections 6 and 8): user and password with
// copy buttons. Without a session: User 'Error', Pass 'Missing Auth'; a failed load: 'Could not load'.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { Session } from '../../../lib/session';
import { useMqttCredentials } from '../api/userQueries';
import { RotatePassword } from './RotatePassword';

/** How long the copy confirmation stays (SPEC.md section 8). */
export const COPY_NOTICE_MS = 2000;

export function CopyLine({
  label,
  value,
  copyable,
}: {
  label: string;
  value: string;
  copyable: boolean;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), COPY_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setNotice('Copied to clipboard!');
    } catch {
      setNotice('Failed to copy!');
    }
  };
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minHeight: 36 }}>
      <Typography sx={{ minWidth: 48 }}>{label}</Typography>
      <Typography component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {value}
      </Typography>
      {copyable && (
        <Button size="small" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </Button>
      )}
      {notice && (
        <Typography role="status" variant="body2">
          {notice}
        </Typography>
      )}
    </Stack>
  );
}

export function CredentialsDialog(props: {
  open: boolean;
  onClose(): void;
  session: Session | null;
  userId: string;
}) {
  const { open, onClose, session, userId } = props;
  const creds = useMqttCredentials(userId, session, open);
  let user = 'Loading...';
  let pass = '';
  let loaded = false;
  if (!session) {
    user = 'Error';
    pass = 'Missing Auth';
  } else if (creds.isError) {
    user = 'Error';
    pass = 'Could not load';
  } else if (creds.data) {
    user = creds.data.user;
    pass = creds.data.pass;
    loaded = true;
  }
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="credentials-title">
      <DialogTitle id="credentials-title">MQTT credentials</DialogTitle>
      <DialogContent>
        <Stack spacing={1}>
          <CopyLine label="User" value={user} copyable={loaded} />
          <CopyLine label="Pass" value={pass} copyable={loaded} />
          <Typography variant="body2" color="text.secondary">
            Enter these in your station&apos;s configuration page so it can connect to the network.
          </Typography>
          {session && loaded && <RotatePassword session={session} userId={userId} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
