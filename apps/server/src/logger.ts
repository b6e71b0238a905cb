// The server's pino logger. Secrets never reach the log: session headers are redacted and the
// login/validation tokens that arrive in query strings are masked in logged URLs.
import { pino, type Logger } from 'pino';

const SECRET_PARAMS = /([?&](?:loginToken|sessionToken|token|otp|validationToken)=)[^&#]*/gi;

export function maskUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * JSON lines by default (for log collectors); `pretty` renders readable lines for a person at a
 * terminal, which is what `npm start` uses when its output is a TTY.
 */
export function createLogger(level: string, format: 'json' | 'pretty' = 'json'): Logger {
  return pino({
    level,
    ...(format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
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
