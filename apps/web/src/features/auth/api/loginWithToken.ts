import { api } from '../../../lib/api';
import { loadSchemas } from '../../../lib/lazySchemas';

/** POST /v1/login: trades the e-mailed login token for a session token. */
export async function loginWithToken(loginToken: string, userId: string): Promise<string> {
  const { LoginResponseSchema } = await loadSchemas();
  const { sessionToken } = await api('/v1/login', LoginResponseSchema, {
    method: 'POST',
    body: { loginToken, userId },
  });
  return sessionToken;
}
