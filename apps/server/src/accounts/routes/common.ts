// Schema pieces shared by the account routes.
import { ErrorBodySchema } from '@tinygs/contracts';
import { z } from 'zod';
import { clientKey } from '../../lib/address-key';

/**
 * The session headers, documented for the OpenAPI page. Optional on purpose: a call without them
 * must answer 401 from the auth check, not 400 from header validation.
 */
export const SessionHeadersSchema = z.looseObject({
  userid: z.string().optional().describe('the logged-in user id'),
  sessiontoken: z.string().optional().describe('the session token from POST /v1/login'),
});

/** Error answers every authenticated route may give, all { error, issues? }. */
export const authErrors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  429: ErrorBodySchema,
} as const;

/** Client address for per-address rate limits (behind TRUST_PROXY the forwarded one; IPv6 /64). */
export function clientAddress(req: { ip: string }): string {
  return clientKey(req.ip);
}
