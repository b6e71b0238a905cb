// Session authentication for HTTP calls: the web app sends the stored userId and sessionToken as
// headers (SPEC.md section 6). Sessions are looked up by the SHA-256 of the token.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { hashToken } from '../lib/crypto';
import { findSessionWithUser, touchSession } from '../repositories/sessions';
import { forbidden, unauthorized } from './errors';

export interface SessionUser {
  userId: string;
  isAdmin: boolean;
  /** the SHA-256 of this session's token, as the sessions table keys it */
  tokenHash: string;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 && v.length <= 512 ? v : undefined;
}

/** The caller's user when the headers carry a live session, otherwise null. Never throws for bad input. */
export async function sessionUser(
  ctx: AppContext,
  req: FastifyRequest,
): Promise<SessionUser | null> {
  const userId = header(req, 'userid');
  const token = header(req, 'sessiontoken');
  if (!userId || !token) return null;
  const now = Date.now();
  const tokenHash = hashToken(token);
  const row = await findSessionWithUser(ctx.database.db, tokenHash);
  if (!row || row.userId !== userId || row.expiresAt <= now) return null;
  // Record use at most once a minute: reads must not turn into a write each.
  if (now - row.lastUsedAt > 60_000) await touchSession(ctx.database.db, tokenHash, now);
  return { userId: row.userId, isAdmin: row.isAdmin === 1, tokenHash };
}

/** 401 unless the headers carry a live session. */
export async function requireUser(ctx: AppContext, req: FastifyRequest): Promise<SessionUser> {
  const user = await sessionUser(ctx, req);
  if (!user) throw unauthorized();
  return user;
}

/** 401 without a session, 403 when the session belongs to someone other than `ownerId`. */
export async function requireOwner(
  ctx: AppContext,
  req: FastifyRequest,
  ownerId: string,
): Promise<SessionUser> {
  const user = await requireUser(ctx, req);
  if (user.userId !== ownerId) throw forbidden();
  return user;
}
