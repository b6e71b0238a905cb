// Token tables: web sessions, single-use login tokens and e-mail validation tokens. Only SHA-256
// hashes of the tokens are stored; the tokens themselves exist only in the link or the browser.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export async function insertLoginToken(
  db: Kysely<Database>,
  token: { tokenHash: string; userId: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('loginTokens')
    .values({ ...token, usedAt: null })
    .execute();
}

/**
 * Marks a login token used and answers true only for the one caller that did so while the token
 * was unused, unexpired and issued to `userId`; a single UPDATE keeps concurrent logins from both winning.
 */
export async function consumeLoginToken(
  db: Kysely<Database>,
  tokenHash: string,
  userId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('loginTokens')
    .set({ usedAt: now })
    .where('tokenHash', '=', tokenHash)
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertSession(
  db: Kysely<Database>,
  session: { tokenHash: string; userId: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...session, lastUsedAt: session.createdAt })
    .execute();
}

/** The session of a token hash with its user's admin flag, or undefined. */
export async function findSessionWithUser(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<{ userId: string; expiresAt: number; lastUsedAt: number; isAdmin: number } | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select(['sessions.userId', 'sessions.expiresAt', 'sessions.lastUsedAt', 'users.isAdmin'])
    .where('sessions.tokenHash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(
  db: Kysely<Database>,
  tokenHash: string,
  lastUsedAt: number,
): Promise<void> {
  await db.updateTable('sessions').set({ lastUsedAt }).where('tokenHash', '=', tokenHash).execute();
}

export async function deleteSession(
  db: Kysely<Database>,
  tokenHash: string,
  userId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('tokenHash', '=', tokenHash)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Ends every session of the user except `keepTokenHash` (null: all of them) and withdraws the
 * login links not used yet. Answers the number of sessions ended.
 */
export async function revokeSessions(
  db: Kysely<Database>,
  userId: string,
  keepTokenHash: string | null,
): Promise<number> {
  let sessions = db.deleteFrom('sessions').where('userId', '=', userId);
  if (keepTokenHash !== null) sessions = sessions.where('tokenHash', '!=', keepTokenHash);
  const result = await sessions.executeTakeFirst();
  await db
    .deleteFrom('loginTokens')
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
  return Number(result.numDeletedRows);
}

/** Housekeeping: expired sessions and tokens are useless and only grow the tables. */
export async function deleteExpiredTokens(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expiresAt', '<=', now).execute();
  await db.deleteFrom('loginTokens').where('expiresAt', '<=', now).execute();
  await db.deleteFrom('emailValidations').where('expiresAt', '<=', now).execute();
}

export async function insertEmailValidation(
  db: Kysely<Database>,
  validation: {
    tokenHash: string;
    userId: string;
    email: string;
    createdAt: number;
    expiresAt: number;
    keepSessionHash: string | null;
  },
): Promise<void> {
  await db
    .insertInto('emailValidations')
    .values({ ...validation, email: validation.email.toLowerCase(), usedAt: null })
    .execute();
}

/**
 * Uses an e-mail validation token once; answers the user and address it was issued for, and the
 * session that asked for it.
 */
export async function consumeEmailValidation(
  db: Kysely<Database>,
  tokenHash: string,
  now: number,
): Promise<{ userId: string; email: string; keepSessionHash: string | null } | null> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('emailValidations')
      .select(['userId', 'email', 'keepSessionHash'])
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    const result = await trx
      .updateTable('emailValidations')
      .set({ usedAt: now })
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? row : null;
  });
}
