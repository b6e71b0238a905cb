// Broker credentials for the station firmware (SPEC.md sections 2 and 8): user and password with
// copy buttons; 'Error' / 'Missing Auth' without a session, 'Error' / 'Could not load' on failure.
import { useQuery } from '@tanstack/react-query';
import { MqttCredentialsResponseSchema } from '@tinygs/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import type { Session } from '../../lib/session';

/** How long the copy confirmation stays (SPEC.md section 8). */
export const COPY_NOTICE_MS = 2000;

function CopyLine({ label, value }: { label: string; value: string }) {
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
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <Typography sx={{ minWidth: 48 }}>{label}</Typography>
      <Typography component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
        {value}
      </Typography>
      <Button size="small" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
        Copy
      </Button>
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
  const creds = useQuery({
    queryKey: ['mqttcred', userId, session?.sessionToken],
    queryFn: ({ signal }) =>
      api(`/v1/mqttcred?userId=${encodeURIComponent(userId)}`, MqttCredentialsResponseSchema, {
        auth: session,
        signal,
      }),
    enabled: open && session !== null,
    retry: false,
  });
  let body;
  if (!session) body = <CopyLine label="User" value="Error" />;
  else if (creds.isError) body = <CopyLine label="User" value="Error" />;
  else if (!creds.data) body = <Typography>Loading...</Typography>;
  else
    body = (
      <>
        <CopyLine label="User" value={creds.data.user} />
        <CopyLine label="Pass" value={creds.data.pass} />
      </>
    );
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="credentials-title">
      <DialogTitle id="credentials-title">MQTT credentials</DialogTitle>
      <DialogContent>
        <Stack spacing={1}>
          {body}
          {!session && <Typography color="error">Missing Auth</Typography>}
          {session && creds.isError && <Typography color="error">Could not load</Typography>}
          <Typography variant="body2" color="text.secondary">
            Enter these in your station&apos;s configuration page so it can connect to the network.
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
