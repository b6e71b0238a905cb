import { LoginResponseSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** POST /v1/login: trades the e-mailed login token for a session token. */
export async function loginWithToken(loginToken: string, userId: string): Promise<string> {
  const { sessionToken } = await api('/v1/login', LoginResponseSchema, {
    method: 'POST',
    body: { loginToken, userId },
  });
  return sessionToken;
}
