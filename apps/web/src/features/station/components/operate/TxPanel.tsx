// Transmission from the station (SPEC.md sections 4, 5, 6 and 8): text (8-bit ASCII, 25 characters)
// or binary (base64/hex), and a test frame. Buttons rest 1 s after a send and 20 s after a test
// frame; failures are only logged.
import {
  TEST_FRAME_LOCK_MS,
  TX_EMPTY_ERROR,
  TX_LOCK_MS,
  TX_MAX_BYTES,
  TX_TEXT_MAX_CHARS,
  TX_TOO_LONG_ERROR,
  TxTextSchema,
  base64ToBytes,
  bytesToBase64,
  isBase64,
  latin1ToBytes,
} from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import type { Session } from '../../../../lib/session';
import { sendTestFrame, transmit } from '../../api/stationActions';
import { EMPTY_BINARY, editBase64, editHex } from '../../lib/binaryText';

export const TX_DISABLED_NOTICE =
  'Transmission is disabled by the hardware configuration of this station. It can be allowed in the station’s local dashboard.';

interface TxPanelProps {
  stationId: string;
  session: Session | null;
  /** the station's hardware allows transmitting */
  txAllowed: boolean;
}

export function TxPanel({ stationId, session, txAllowed }: TxPanelProps) {
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const [binary, setBinary] = useState(EMPTY_BINARY);
  const [binaryError, setBinaryError] = useState<string | null>(null);
  const [locked, setLocked] = useState(false);
  const unlockTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (unlockTimer.current) clearTimeout(unlockTimer.current);
    },
    [],
  );

  if (!txAllowed) return <Alert severity="info">{TX_DISABLED_NOTICE}</Alert>;

  const lockFor = (ms: number) => {
    setLocked(true);
    if (unlockTimer.current) clearTimeout(unlockTimer.current);
    unlockTimer.current = setTimeout(() => setLocked(false), ms);
  };

  const send = (base64: string) => {
    lockFor(TX_LOCK_MS);
    transmit(stationId, session, base64).catch((error: unknown) =>
      console.warn('Transmission failed', error),
    );
  };

  const sendText = () => {
    const check = TxTextSchema.safeParse(text);
    if (!check.success) {
      setTextError(check.error.issues[0]?.message ?? TX_EMPTY_ERROR);
      return;
    }
    setTextError(null);
    send(bytesToBase64(latin1ToBytes(check.data)));
  };

  const sendBinary = () => {
    const base64 = binary.base64.trim();
    if (binary.base64Error || binary.hexError || !isBase64(base64)) return;
    const bytes = base64ToBytes(base64);
    if (bytes.length === 0) return setBinaryError(TX_EMPTY_ERROR);
    if (bytes.length > TX_MAX_BYTES) return setBinaryError(TX_TOO_LONG_ERROR);
    setBinaryError(null);
    send(base64);
  };

  const testFrame = () => {
    lockFor(TEST_FRAME_LOCK_MS);
    sendTestFrame(stationId, session).catch((error: unknown) =>
      console.warn('Test frame failed', error),
    );
  };

  return (
    <Stack spacing={2}>
      <Grid container spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Grid size={{ xs: 12, md: 9 }}>
          <TextField
            label="Text payload"
            fullWidth
            size="small"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setTextError(null);
            }}
            error={textError !== null}
            helperText={textError ?? `${text.length}/${TX_TEXT_MAX_CHARS} characters, 8-bit ASCII`}
            slotProps={{ htmlInput: { maxLength: TX_TEXT_MAX_CHARS } }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <Button fullWidth variant="contained" onClick={sendText} disabled={locked}>
            Send text
          </Button>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            label="Binary payload (base64)"
            fullWidth
            size="small"
            value={binary.base64}
            onChange={(event) => {
              setBinary((b) => editBase64(b, event.target.value));
              setBinaryError(null);
            }}
            error={binary.base64Error !== null}
            helperText={binary.base64Error ?? ' '}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <TextField
            label="Binary payload (hex)"
            fullWidth
            size="small"
            value={binary.hex}
            onChange={(event) => {
              setBinary((b) => editHex(b, event.target.value));
              setBinaryError(null);
            }}
            error={binary.hexError !== null || binaryError !== null}
            helperText={binary.hexError ?? binaryError ?? ' '}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <Button fullWidth variant="contained" onClick={sendBinary} disabled={locked}>
            Send binary
          </Button>
        </Grid>
      </Grid>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" onClick={testFrame} disabled={locked}>
          Send test frame
        </Button>
        <Typography variant="body2" color="text.secondary">
          Sends a short frame starting with &quot;TinyGS-test&quot;.
        </Typography>
      </Stack>
    </Stack>
  );
}
