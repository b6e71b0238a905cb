import { MessageResponseSchema } from '@tinygs/contracts';
import { api, ApiError } from '../../../lib/api';

export const WEBLOGIN_FALLBACK_ERROR = 'An error occurred, please try again later.';

/** POST /weblogin/: the server e-mails a login link; its answer carries a message to show. */
export async function requestWebLogin(email: string, captcha: string): Promise<string> {
  const { message } = await api('/weblogin/', MessageResponseSchema, {
    method: 'POST',
    body: { email, captcha },
  });
  return message;
}

/** The server's own words for a failed request (its message field), else the generic text. */
export function webLoginErrorText(error: unknown): string {
  if (error instanceof ApiError && error.body && typeof error.body === 'object') {
    const body = error.body as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
    if (typeof body.error === 'string' && body.error) return body.error;
  }
  return WEBLOGIN_FALLBACK_ERROR;
}
