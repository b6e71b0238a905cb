// Personal API tokens: one row per token, looked up by the SHA-256 of the token.
import type { Kysely, Selectable } from 'kysely';
import type { ApiTokensTable, Database } from '../db/schema';

export type ApiTokenRow = Selectable<ApiTokensTable>;

export async function insertApiToken(db: Kysely<Database>, row: ApiTokenRow): Promise<void> {
  await db.insertInto('apiTokens').values(row).execute();
}

/** One user's tokens, oldest first. */
export async function listApiTokens(db: Kysely<Database>, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('apiTokens')
    .selectAll()
    .where('userId', '=', userId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
}

export async function countApiTokens(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('apiTokens')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findApiTokenByHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<ApiTokenRow | undefined> {
  return db
    .selectFrom('apiTokens')
    .selectAll()
    .where('tokenHash', '=', tokenHash)
    .executeTakeFirst();
}

/** Deletes one of the user's tokens; false when the user has no token with that id. */
export async function deleteApiToken(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<boolean> {
  const res = await db
    .deleteFrom('apiTokens')
    .where('id', '=', id)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export async function touchApiToken(db: Kysely<Database>, id: string, at: number): Promise<void> {
  await db.updateTable('apiTokens').set({ lastUsedAt: at }).where('id', '=', id).execute();
}
