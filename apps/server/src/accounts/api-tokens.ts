// Personal API tokens: created (shown once), listed and revoked by their owner; resolved from the
// `Authorization: Bearer` header of public reads. Only the SHA-256 of a token is stored. Resolved
// tokens are kept in memory for a short time so that a busy script costs no lookup per request.
import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  API_TOKEN_SHOWN_CHARS,
  API_TOKEN_TEXTS,
  API_TOKENS_PER_USER,
  isApiTokenShaped,
  type ApiToken,
  type ApiTokenCreated,
} from '@tinygs/contracts';
import type { AppContext } from '../context';
import { conflict, notFound } from '../http/errors';
import { hashToken } from '../lib/crypto';
import { perContext } from '../lib/per-context';
import {
  countApiTokens,
  deleteApiToken,
  findApiTokenByHash,
  insertApiToken,
  listApiTokens,
  touchApiToken,
  type ApiTokenRow,
} from '../repositories/api-tokens';

/** Who a request with a valid token speaks for; what logs and rate limits name. */
export interface TokenCaller {
  id: string;
  name: string;
  userId: string;
}

/** A resolved token is trusted this long; a revocation reaches other instances within it. */
export const TOKEN_CACHE_MS = 30_000;
const TOKEN_CACHE_ENTRIES = 10_000;
/** Last use is written at most this often per token. */
const LAST_USED_EVERY_MS = 60_000;

function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

interface CacheEntry {
  caller: TokenCaller;
  lastUsedAt: number | null;
  until: number;
}

export class ApiTokens {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly ctx: AppContext) {}

  async list(userId: string): Promise<ApiToken[]> {
    return (await listApiTokens(this.ctx.database.db, userId)).map(toApiToken);
  }

  /** A new token for `userId`: 409 when the user already holds API_TOKENS_PER_USER. */
  async create(userId: string, name: string, now = Date.now()): Promise<ApiTokenCreated> {
    const db = this.ctx.database.db;
    if ((await countApiTokens(db, userId)) >= API_TOKENS_PER_USER)
      throw conflict(API_TOKEN_TEXTS.tooMany);
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row: ApiTokenRow = {
      id: randomBytes(9).toString('base64url'),
      userId,
      name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, API_TOKEN_SHOWN_CHARS),
      createdAt: now,
      lastUsedAt: null,
    };
    await insertApiToken(db, row);
    // Two creations at once may both have counted below the cap: the count after inserting decides.
    if ((await countApiTokens(db, userId)) > API_TOKENS_PER_USER) {
      await deleteApiToken(db, userId, row.id);
      throw conflict(API_TOKEN_TEXTS.tooMany);
    }
    this.ctx.log.info({ userId, apiToken: { id: row.id, name } }, 'API token created');
    return { ...toApiToken(row), token };
  }

  /** Revokes one of the user's tokens at once (this instance; others within TOKEN_CACHE_MS). */
  async revoke(userId: string, id: string): Promise<void> {
    if (!(await deleteApiToken(this.ctx.database.db, userId, id))) throw notFound('No such token');
    for (const [hash, entry] of this.cache) if (entry.caller.id === id) this.cache.delete(hash);
    this.ctx.log.info({ userId, apiToken: { id } }, 'API token revoked');
  }

  /** The token's owner and name, or null for a token that does not exist (any more). */
  async resolve(token: string, now = Date.now()): Promise<TokenCaller | null> {
    if (!isApiTokenShaped(token)) return null;
    const hash = hashToken(token);
    let entry = this.cache.get(hash);
    if (!entry || entry.until <= now) {
      this.cache.delete(hash);
      const row = await findApiTokenByHash(this.ctx.database.db, hash);
      if (!row) return null;
      entry = {
        caller: { id: row.id, name: row.name, userId: row.userId },
        lastUsedAt: row.lastUsedAt,
        until: now + TOKEN_CACHE_MS,
      };
      if (this.cache.size >= TOKEN_CACHE_ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(hash, entry);
    }
    if (entry.lastUsedAt === null || now - entry.lastUsedAt >= LAST_USED_EVERY_MS) {
      entry.lastUsedAt = now;
      await touchApiToken(this.ctx.database.db, entry.caller.id, now);
    }
    return entry.caller;
  }
}

/** The token service of one server (one cache per assembled server). */
export const apiTokens = perContext((ctx) => new ApiTokens(ctx));
