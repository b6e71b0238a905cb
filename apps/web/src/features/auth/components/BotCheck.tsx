// The bot check of the login dialog: a proof of work on a challenge served by our own server
// (ALTCHA, /altcha/challenge), solved in the page when the visitor ticks the box. It runs in any
// context, plain HTTP included (see lib/proofOfWork.ts).
import { CAPTCHA_ERRORS } from '@tinygs/contracts';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import { useEffect, useRef, useState } from 'react';

export interface BotCheckProps {
  /** The verified payload (the token for /weblogin), or null when there is none. */
  onToken(token: string | null): void;
}

type CheckState = 'unverified' | 'verifying' | 'verified';

const LABELS: Record<CheckState, string> = {
  unverified: "I'm not a robot",
  verifying: 'Verifying...',
  verified: 'Verified',
};

/** Mounted afresh (a new React key) to start over after a failed request spent the token. */
export function BotCheck({ onToken }: BotCheckProps) {
  const [state, setState] = useState<CheckState>('unverified');
  const [error, setError] = useState<string | null>(null);
  const run = useRef<AbortController | null>(null);
  const expiry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  }, [onToken]);

  const stop = () => {
    run.current?.abort();
    run.current = null;
    clearTimeout(expiry.current);
  };
  useEffect(() => stop, []);

  const verify = async () => {
    stop();
    const controller = new AbortController();
    run.current = controller;
    setState('verifying');
    setError(null);
    try {
      // Loaded on demand: visitors who never tick the box never download the solver.
      const { solveBotCheck } = await import('../lib/proofOfWork');
      const solved = await solveBotCheck(controller.signal);
      if (!solved || controller.signal.aborted) return;
      setState('verified');
      onTokenRef.current(solved.payload);
      if (solved.expiresAtMs !== null) {
        expiry.current = setTimeout(
          () => {
            setState('unverified');
            setError(CAPTCHA_ERRORS.expired);
            onTokenRef.current(null);
          },
          Math.max(0, solved.expiresAtMs - Date.now()),
        );
      }
    } catch (err) {
      if (controller.signal.aborted) return;
      console.warn('Bot check failed', err);
      const { ChallengeUnavailableError } = await import('../lib/proofOfWork');
      setState('unverified');
      setError(
        err instanceof ChallengeUnavailableError
          ? CAPTCHA_ERRORS.unavailable
          : CAPTCHA_ERRORS.error,
      );
      onTokenRef.current(null);
    }
  };

  return (
    <Box sx={{ my: 2 }} data-testid="bot-check">
      <FormControlLabel
        label={LABELS[state]}
        control={
          state === 'verifying' ? (
            <Box sx={{ p: '9px', display: 'flex' }}>
              <CircularProgress size={24} aria-label="Verifying" />
            </Box>
          ) : (
            <Checkbox
              checked={state === 'verified'}
              disabled={state === 'verified'}
              onChange={(event) => {
                if (event.target.checked) void verify();
              }}
            />
          )
        }
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, pr: 2, ml: 0 }}
      />
      {error && (
        <FormHelperText error role="alert">
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}
