// The server's pino logger. Secrets never reach the log: session headers are redacted and the
// login/validation tokens that arrive in query strings are masked in logged URLs.
import { pino, type Logger } from 'pino';

const SECRET_PARAMS = /([?&](?:loginToken|sessionToken|token|otp|validationToken)=)[^&#]*/gi;

export function maskUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.sessiontoken',
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.sessiontoken',
        'password',
        'pass',
        '*.password',
        '*.pass',
        '*.sessionToken',
        '*.loginToken',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(req: { method?: string; url?: string; ip?: string; id?: string }) {
        return { id: req.id, method: req.method, url: maskUrl(req.url ?? ''), ip: req.ip };
      },
    },
  });
}
