// The ALTCHA proof-of-work bot check (served by our own server at /altcha/challenge). The widget
// is a web component loaded on demand, so visitors who never open the login dialog never fetch it.
import { CAPTCHA_ERRORS } from '@tinygs/contracts';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import { useEffect, useRef, useState } from 'react';

export const ALTCHA_CHALLENGE_PATH = '/altcha/challenge';

export interface BotCheckProps {
  /** The verified payload (the token for /weblogin), or null when there is none. */
  onToken(token: string | null): void;
  /** Changing this number resets the widget (after a failed request). */
  resetSignal: number;
}

type WidgetState = 'code' | 'error' | 'verified' | 'verifying' | 'unverified' | 'expired';

interface StateChangeDetail {
  state?: WidgetState;
  payload?: string;
}

/** The widget hashes with Web Crypto, which browsers only offer on HTTPS (or localhost). */
function widgetCanRun(): boolean {
  return window.isSecureContext && typeof crypto !== 'undefined' && crypto.subtle !== undefined;
}

export function BotCheck({ onToken, resetSignal }: BotCheckProps) {
  const host = useRef<HTMLDivElement>(null);
  const widget = useRef<HTMLElement & { reset?: () => void }>(null);
  const [error, setError] = useState<string | null>(() =>
    widgetCanRun() ? null : CAPTCHA_ERRORS.unavailable,
  );
  const onTokenRef = useRef(onToken);
  useEffect(() => {
    onTokenRef.current = onToken;
  }, [onToken]);

  useEffect(() => {
    let cancelled = false;
    // The widget reports a failed challenge download as a plain error; this flag tells them apart.
    let serviceDown = false;
    const container = host.current;
    const element = document.createElement('altcha-widget');
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<StateChangeDetail>).detail;
      switch (detail.state) {
        case 'verified':
          setError(null);
          onTokenRef.current(detail.payload ?? null);
          break;
        case 'expired':
          setError(CAPTCHA_ERRORS.expired);
          onTokenRef.current(null);
          break;
        case 'error':
          setError(
            serviceDown || !widgetCanRun() ? CAPTCHA_ERRORS.unavailable : CAPTCHA_ERRORS.error,
          );
          onTokenRef.current(null);
          break;
        default:
          setError(null);
          onTokenRef.current(null);
      }
    };
    element.addEventListener('statechange', onStateChange);
    element.setAttribute('challenge', ALTCHA_CHALLENGE_PATH);
    element.setAttribute('name', 'captcha');
    container?.appendChild(element);
    widget.current = element;

    import('altcha').then(
      async () => {
        if (cancelled) return;
        await customElements.whenDefined('altcha-widget');
        const configurable = element as unknown as {
          configure?: (config: { fetch: typeof fetch; hideFooter: boolean }) => Promise<void>;
        };
        await configurable.configure?.({
          hideFooter: true,
          fetch: (input, init) =>
            fetch(input, init).then(
              (res) => {
                serviceDown = !res.ok;
                return res;
              },
              (err: unknown) => {
                serviceDown = true;
                throw err;
              },
            ),
        });
      },
      (err: unknown) => {
        console.warn('Bot check widget failed to load', err);
        if (!cancelled) setError(CAPTCHA_ERRORS.unavailable);
      },
    );

    return () => {
      cancelled = true;
      element.removeEventListener('statechange', onStateChange);
      element.remove();
      widget.current = null;
    };
  }, []);

  useEffect(() => {
    if (resetSignal === 0) return;
    widget.current?.reset?.();
    onTokenRef.current(null);
  }, [resetSignal]);

  return (
    <Box sx={{ my: 2 }}>
      <div ref={host} data-testid="bot-check" />
      {error && (
        <FormHelperText error role="alert">
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}
