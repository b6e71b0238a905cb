// The outbox of frames on their way to SatNOGS DB (satnogs/forwarder.ts). A row names one stored
// reception (packet and station); what is sent is read from the reception, its packet and its
// station when the row is sent, so the outbox holds two keys per frame and nothing else to keep
// in step. The key is the primary key: a reception is queued at most once.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface OutboxKey {
  packetId: string;
  stationId: string;
}

/**
 * Queues receptions (already filtered to CRC-passing frames of opted-in satellites) in the ingest
 * batch's transaction, except those of stations whose owners opted out. Queued already: no-op.
 */
export async function queueForSatnogs(
  trx: Kysely<Database>,
  receptions: readonly (OutboxKey & { serverTime: number })[],
): Promise<void> {
  if (receptions.length === 0) return;
  const stationIds = [...new Set(receptions.map((r) => r.stationId))];
  const optedOut = new Set(
    (
      await trx
        .selectFrom('stations')
        .select('id')
        .where('id', 'in', stationIds)
        .where('satnogsOptOut', '=', 1)
        .execute()
    ).map((s) => s.id),
  );
  const rows = receptions
    .filter((r) => !optedOut.has(r.stationId))
    .map((r) => ({
      packetId: r.packetId,
      stationId: r.stationId,
      queuedAt: r.serverTime,
      nextAttemptAt: r.serverTime,
      attempts: 0,
      lastError: null,
    }));
  if (rows.length === 0) return;
  await trx
    .insertInto('satnogsOutbox')
    .values(rows)
    .onConflict((oc) => oc.columns(['packetId', 'stationId']).doNothing())
    .execute();
}

/** A due row with what its SiDS form is made of; the joined fields are null when that row is gone. */
export interface DueFrame extends OutboxKey {
  nextAttemptAt: number;
  attempts: number;
  norad: number | null;
  /** base64 */
  raw: string | null;
  crcError: number | null;
  serverTime: number | null;
  /** station clock, microseconds */
  usecTime: number | null;
  lat: number | null;
  lng: number | null;
  azimuth: number | null;
  elevation: number | null;
  stationName: string | null;
  satnogsOptOut: number | null;
}

/** The rows due at `now`, the longest waiting first. */
export async function dueFrames(
  db: Kysely<Database>,
  now: number,
  limit: number,
): Promise<DueFrame[]> {
  return db
    .selectFrom('satnogsOutbox as o')
    .leftJoin('receptions as r', (j) =>
      j.onRef('r.packetId', '=', 'o.packetId').onRef('r.stationId', '=', 'o.stationId'),
    )
    .leftJoin('packets as p', 'p.id', 'o.packetId')
    .leftJoin('stations as s', 's.id', 'o.stationId')
    .select([
      'o.packetId',
      'o.stationId',
      'o.nextAttemptAt',
      'o.attempts',
      'p.norad',
      'p.raw',
      'r.crcError',
      'r.serverTime',
      'r.usecTime',
      'r.lat',
      'r.lng',
      'r.azimuth',
      'r.elevation',
      's.name as stationName',
      's.satnogsOptOut',
    ])
    .where('o.nextAttemptAt', '<=', now)
    .orderBy('o.nextAttemptAt')
    .orderBy('o.queuedAt')
    .limit(limit)
    .execute();
}

/**
 * Takes a due row for one attempt: moves its next attempt to `until` if it is still where it was
 * read. False when another sender took it meanwhile (or it is gone): it must not be sent.
 */
export async function claimFrame(
  db: Kysely<Database>,
  row: OutboxKey & { nextAttemptAt: number },
  until: number,
): Promise<boolean> {
  const result = await db
    .updateTable('satnogsOutbox')
    .set({ nextAttemptAt: until })
    .where('packetId', '=', row.packetId)
    .where('stationId', '=', row.stationId)
    .where('nextAttemptAt', '=', row.nextAttemptAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function removeFrame(db: Kysely<Database>, key: OutboxKey): Promise<void> {
  await db
    .deleteFrom('satnogsOutbox')
    .where('packetId', '=', key.packetId)
    .where('stationId', '=', key.stationId)
    .execute();
}

/** A failed attempt: tried again at `nextAttemptAt`. */
export async function retryFrameLater(
  db: Kysely<Database>,
  key: OutboxKey,
  nextAttemptAt: number,
  error: string,
): Promise<void> {
  await db
    .updateTable('satnogsOutbox')
    .set((eb) => ({
      nextAttemptAt,
      attempts: eb('attempts', '+', 1),
      lastError: error.slice(0, 500),
    }))
    .where('packetId', '=', key.packetId)
    .where('stationId', '=', key.stationId)
    .execute();
}

export async function outboxDepth(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('satnogsOutbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Keeps the newest `max` rows (and any queued at the same millisecond as the last of them): the
 * older ones are deleted. Returns how many were.
 */
export async function dropOldestBeyond(db: Kysely<Database>, max: number): Promise<number> {
  const cutoff = await db
    .selectFrom('satnogsOutbox')
    .select('queuedAt')
    .orderBy('queuedAt', 'desc')
    .limit(1)
    .offset(max - 1)
    .executeTakeFirst();
  if (!cutoff) return 0;
  const result = await db
    .deleteFrom('satnogsOutbox')
    .where('queuedAt', '<', cutoff.queuedAt)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Per-satellite opt-in (the admin CLI); false when there is no such satellite. */
export async function setSatelliteForwarding(
  db: Kysely<Database>,
  name: string,
  on: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('satellites')
    .set({ satnogsForward: on ? 1 : 0, updatedAt: Date.now() })
    .where('name', '=', name)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface OutboxSummary {
  waiting: number;
  oldestQueuedAt: number | null;
  mostAttempts: number;
  /** the last failure of the row tried most often */
  lastError: string | null;
  /** the satellites opted in, with their NORAD ids (null: never forwarded) */
  satellites: { name: string; norad: number | null }[];
}

/** What an operator asks when frames do not show up in SatNOGS DB (CLI `satnogs status`). */
export async function outboxSummary(db: Kysely<Database>): Promise<OutboxSummary> {
  const [totals, failing, satellites] = await Promise.all([
    db
      .selectFrom('satnogsOutbox')
      .select((eb) => [
        eb.fn.countAll<number>().as('waiting'),
        eb.fn.min('queuedAt').as('oldest'),
        eb.fn.max('attempts').as('most'),
      ])
      .executeTakeFirst(),
    db
      .selectFrom('satnogsOutbox')
      .select('lastError')
      .where('lastError', 'is not', null)
      .orderBy('attempts', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('satellites')
      .select(['name', 'norad'])
      .where('satnogsForward', '=', 1)
      .orderBy('name')
      .execute(),
  ]);
  return {
    waiting: Number(totals?.waiting ?? 0),
    oldestQueuedAt: totals?.oldest == null ? null : Number(totals.oldest),
    mostAttempts: Number(totals?.most ?? 0),
    lastError: failing?.lastError ?? null,
    satellites,
  };
}
