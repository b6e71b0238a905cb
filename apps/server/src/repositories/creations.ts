// Pending station creations (one-time codes): what the owner submitted, until the firmware collects
// its credentials once with GET /credentials?otp=.
import type { Kysely } from 'kysely';
import type { Database, PendingCreationRow } from '../db/schema';

export type CreationStatus = 'pending' | 'delivered' | 'success' | 'error';

export interface NewCreation {
  id: string;
  otp: string;
  userId: string;
  stationName: string;
  lat: number;
  lng: number;
  adminPwEnc: string;
  tz: string;
  createdAt: number;
  expiresAt: number;
}

/** Why a submission was not stored: the user already has `cap` other codes waiting. */
export interface CreationRefused {
  /** when the oldest of them expires, freeing a place */
  freeAt: number;
}

/**
 * Stores a submission unless the user already has `cap` other codes waiting; a waiting submission
 * of the same code by the same user is replaced (amended). The user's row is locked first (a no-op
 * UPDATE: a row lock on PostgreSQL, the write lock on SQLite), so concurrent submissions of one
 * user are counted one after the other and the cap holds.
 */
export async function insertCreationWithinCap(
  db: Kysely<Database>,
  creation: NewCreation,
  cap: number,
  replacedText: string,
): Promise<CreationRefused | null> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set((eb) => ({ createdAt: eb.ref('createdAt') }))
      .where('id', '=', creation.userId)
      .execute();
    const others = await trx
      .selectFrom('pendingCreations')
      .select('expiresAt')
      .where('userId', '=', creation.userId)
      .where('status', '=', 'pending')
      .where('expiresAt', '>', creation.createdAt)
      .where('otp', '!=', creation.otp)
      .orderBy('expiresAt')
      .execute();
    if (others.length >= cap) return { freeAt: others[0]?.expiresAt ?? creation.expiresAt };
    // The same owner may correct the details and submit the code again (SPEC.md: cancel, amend, retry).
    await trx
      .updateTable('pendingCreations')
      .set({ status: 'error', text: replacedText })
      .where('userId', '=', creation.userId)
      .where('otp', '=', creation.otp)
      .where('status', '=', 'pending')
      .execute();
    await trx
      .insertInto('pendingCreations')
      .values({ ...creation, status: 'pending', text: '', deliveredAt: null })
      .execute();
    return null;
  });
}

/** Every submission of a code still waiting for its station (not collected, not expired). */
export async function findWaitingByOtp(
  db: Kysely<Database>,
  otp: string,
  now: number,
): Promise<PendingCreationRow[]> {
  return db
    .selectFrom('pendingCreations')
    .selectAll()
    .where('otp', '=', otp)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .orderBy('createdAt', 'desc')
    .execute();
}

/** The user's latest submission of this code since `since`, whatever its state. */
export async function findRecentOfUserByOtp(
  db: Kysely<Database>,
  userId: string,
  otp: string,
  since: number,
): Promise<PendingCreationRow | undefined> {
  return db
    .selectFrom('pendingCreations')
    .selectAll()
    .where('otp', '=', otp)
    .where('userId', '=', userId)
    .where('createdAt', '>', since)
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();
}

export async function latestCreationOfUser(
  db: Kysely<Database>,
  userId: string,
): Promise<PendingCreationRow | undefined> {
  return db
    .selectFrom('pendingCreations')
    .selectAll()
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Hands the credentials out once: only the caller whose UPDATE moved the row from pending to
 * delivered gets true. The admin password is wiped then; the station has it from now on.
 */
export async function markDelivered(
  db: Kysely<Database>,
  id: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('pendingCreations')
    .set({ status: 'delivered', deliveredAt: now, adminPwEnc: '' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setCreationOutcome(
  db: Kysely<Database>,
  id: string,
  outcome: { status: CreationStatus; text: string },
): Promise<void> {
  await db.updateTable('pendingCreations').set(outcome).where('id', '=', id).execute();
}

/**
 * Housekeeping: submissions created before `before` are finished one way or another (a code lives
 * 30 minutes, a collected one waits 30 more for its station); their rows only grow the table.
 */
export async function deleteCreationsBefore(db: Kysely<Database>, before: number): Promise<number> {
  const result = await db
    .deleteFrom('pendingCreations')
    .where('createdAt', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
