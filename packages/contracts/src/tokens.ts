// Personal API tokens (server addition): a logged-in user names read tokens for scripts and
// dashboards, sent as `Authorization: Bearer TOKEN` on public reads for a rate limit of their own.
import { z } from 'zod';
import { UserIdSchema } from './ids';

/** Every token starts with this, so a leaked one is recognisable (and scanners can look for it). */
export const API_TOKEN_PREFIX = 'tgs_';
/** The prefix plus 43 base64url characters (32 random bytes). */
export const API_TOKEN_CHARS = API_TOKEN_PREFIX.length + 43;
/** Characters of a token kept (and shown) to tell tokens apart: the prefix and four more. */
export const API_TOKEN_SHOWN_CHARS = API_TOKEN_PREFIX.length + 4;
/** Tokens one user may hold at once. */
export const API_TOKENS_PER_USER = 10;
export const API_TOKEN_NAME_MAX_CHARS = 60;

export const API_TOKEN_TEXTS = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${API_TOKEN_NAME_MAX_CHARS} characters`,
  tooMany: `You already have ${API_TOKENS_PER_USER} tokens. Revoke one before creating another.`,
  invalid: 'Invalid or revoked API token',
} as const;

/** Bearer token syntax: the prefix and 43 base64url characters. */
export function isApiTokenShaped(text: string): boolean {
  return (
    text.length === API_TOKEN_CHARS &&
    text.startsWith(API_TOKEN_PREFIX) &&
    /^[A-Za-z0-9_-]+$/.test(text.slice(API_TOKEN_PREFIX.length))
  );
}

export const ApiTokenNameSchema = z
  .string({ error: API_TOKEN_TEXTS.nameRequired })
  .max(API_TOKEN_NAME_MAX_CHARS, { error: API_TOKEN_TEXTS.nameTooLong, abort: true })
  .trim()
  .min(1, API_TOKEN_TEXTS.nameRequired);

/** A token as its owner sees it in the list: never the token itself. */
export const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** the token's first characters, to recognise it */
  prefix: z.string(),
  createdAt: z.number().int(),
  /** last request made with it (to the minute); null when never used */
  lastUsedAt: z.number().int().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

// GET/POST /v1/user/{userId}/tokens, DELETE /v1/user/{userId}/tokens/{tokenId}
export const ApiTokenListResponseSchema = z.array(ApiTokenSchema);
export const ApiTokenCreateBodySchema = z.object({ name: ApiTokenNameSchema });
export type ApiTokenCreateBody = z.infer<typeof ApiTokenCreateBodySchema>;
/** The answer to a creation: the only time the token is ever shown. */
export const ApiTokenCreatedResponseSchema = ApiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof ApiTokenCreatedResponseSchema>;
export const ApiTokenParamsSchema = z.object({
  userId: UserIdSchema,
  tokenId: z.string().min(1).max(40),
});
