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

export async function insertCreation(db: Kysely<Database>, creation: NewCreation): Promise<void> {
  await db
    .insertInto('pendingCreations')
    .values({ ...creation, status: 'pending', text: '', deliveredAt: null })
    .execute();
}

/** A code still waiting for its station (not collected, not expired), whoever submitted it. */
export async function findWaitingByOtp(
  db: Kysely<Database>,
  otp: string,
  now: number,
): Promise<PendingCreationRow | undefined> {
  return db
    .selectFrom('pendingCreations')
    .selectAll()
    .where('otp', '=', otp)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .orderBy('createdAt', 'desc')
    .executeTakeFirst();
}

/** The latest creation with this code that is still waiting or was collected recently. */
export async function findRecentByOtp(
  db: Kysely<Database>,
  otp: string,
  since: number,
): Promise<PendingCreationRow | undefined> {
  return db
    .selectFrom('pendingCreations')
    .selectAll()
    .where('otp', '=', otp)
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
