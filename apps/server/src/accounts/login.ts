// E-mail login: single-use login links (15 min) and the sessions they open (30 days). Tokens are
// 32 random bytes; only their SHA-256 is stored.
import { LOGIN_TOKEN_TTL_MS, SESSION_TTL_MS } from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { hashToken, randomToken } from '../lib/crypto';
import { mailerOf } from '../mail/part';
import { loginLinkMail } from '../mail/templates';
import {
  consumeLoginToken,
  deleteSession,
  insertLoginToken,
  insertSession,
} from '../repositories/sessions';
import { findUserByEmail } from '../repositories/users';

/** The same answer whether or not the address is registered, so it cannot be used to probe accounts. */
export const WEBLOGIN_MESSAGE =
  'If this e-mail address is registered, a login link is on its way. Please check your mailbox.';

export function loginUrl(ctx: AppContext, token: string, userId: string): string {
  const params = new URLSearchParams({ loginToken: token, userId });
  return `${ctx.config.publicUrl}/?${params.toString()}`;
}

/** A fresh single-use login link for the user. */
export async function issueLoginLink(
  ctx: AppContext,
  userId: string,
  now = Date.now(),
): Promise<string> {
  const token = randomToken(32);
  await insertLoginToken(ctx.database.db, {
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    expiresAt: now + LOGIN_TOKEN_TTL_MS,
  });
  return loginUrl(ctx, token, userId);
}

/** Mails a login link to the user's address. Without SMTP the link is also logged: the one place a
 * link reaches the log, so that a newcomer running the server locally can log in. */
export async function sendLoginLink(
  ctx: AppContext,
  user: UserRow & { email: string },
): Promise<void> {
  const url = await issueLoginLink(ctx, user.id);
  const mailer = mailerOf(ctx);
  const content = loginLinkMail({
    productName: ctx.config.productName,
    url,
    validMinutes: LOGIN_TOKEN_TTL_MS / 60_000,
  });
  await mailer.send({ to: user.email, ...content });
  if (mailer.kind === 'outbox')
    ctx.log.info(`Login link for ${user.email} (no SMTP_URL, mail in the outbox): ${url}`);
}

/**
 * POST /weblogin/ after the bot check and rate limits. The mail goes out in the background so a
 * registered address does not answer measurably slower than an unknown one.
 */
export function requestWebLogin(ctx: AppContext, email: string): void {
  void (async () => {
    const user = await findUserByEmail(ctx.database.db, email);
    if (!user?.email) return;
    await sendLoginLink(ctx, { ...user, email: user.email });
  })().catch((err: unknown) => ctx.log.error({ err }, 'could not send a login link'));
}

/** Exchanges a login token for a new session token; null when the token is unknown, used or expired. */
export async function login(
  ctx: AppContext,
  loginToken: string,
  userId: string,
): Promise<string | null> {
  const now = Date.now();
  if (!(await consumeLoginToken(ctx.database.db, hashToken(loginToken), userId, now))) return null;
  const sessionToken = randomToken(32);
  await insertSession(ctx.database.db, {
    tokenHash: hashToken(sessionToken),
    userId,
    createdAt: now,
    expiresAt: now + SESSION_TTL_MS,
  });
  return sessionToken;
}

export async function logout(ctx: AppContext, userId: string, sessionToken: string): Promise<void> {
  await deleteSession(ctx.database.db, hashToken(sessionToken), userId);
}
