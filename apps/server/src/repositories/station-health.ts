// Station health: transitions written with the station's state (ingest batches), read for the
// health call, and folded into per-day rows once older than the retention window.
import { sql, type Kysely } from 'kysely';
import type { StationStatusCause } from '@tinygs/contracts';
import type { Database } from '../db/schema';

export interface StatusEventRow {
  stationId: string;
  at: number;
  online: boolean;
  cause: StationStatusCause;
}

export interface TransitionRow {
  at: number;
  online: boolean;
  cause: StationStatusCause;
}

export interface UptimeDayRow {
  stationId: string;
  day: string;
  onlineMs: number;
  knownMs: number;
  outages: number;
  onlineAtEnd: boolean;
}

const INSERT_CHUNK = 1000;

export async function insertStatusEvents(
  db: Kysely<Database>,
  rows: readonly StatusEventRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('stationStatusEvents')
      .values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, online: r.online ? 1 : 0 })))
      .execute();
  }
}

/**
 * Start-up of the embedded broker: the stations stored as online went offline when the previous
 * server stopped (at their last sign of life, as far as anyone knows).
 */
export async function recordRestartOffline(db: Kysely<Database>, now: number): Promise<void> {
  await sql`
    INSERT INTO station_status_events (station_id, at, online, cause)
    SELECT id, COALESCE(last_seen, ${now}), 0, 'restart' FROM stations WHERE status != 0`.execute(
    db,
  );
}

function toTransition(r: { at: number; online: number; cause: string }): TransitionRow {
  return { at: Number(r.at), online: r.online === 1, cause: r.cause as StationStatusCause };
}

/**
 * A station's transitions in [from, before), oldest first; with `newest`, only the newest that
 * many.
 */
export async function readTransitions(
  db: Kysely<Database>,
  stationId: string,
  range: { from?: number; before?: number; newest?: number },
): Promise<TransitionRow[]> {
  let query = db
    .selectFrom('stationStatusEvents')
    .select(['at', 'online', 'cause'])
    .where('stationId', '=', stationId);
  if (range.from !== undefined) query = query.where('at', '>=', range.from);
  if (range.before !== undefined) query = query.where('at', '<', range.before);
  if (range.newest === undefined) return (await query.orderBy('at').execute()).map(toTransition);
  const rows = await query.orderBy('at', 'desc').limit(range.newest).execute();
  return rows.reverse().map(toTransition);
}

/** The station's state just before `at`: its last transition, else its last folded day. */
export async function stateBefore(
  db: Kysely<Database>,
  stationId: string,
  at: number,
): Promise<boolean | null> {
  const last = await db
    .selectFrom('stationStatusEvents')
    .select(['online'])
    .where('stationId', '=', stationId)
    .where('at', '<', at)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last) return last.online === 1;
  const folded = await latestUptimeDay(db, stationId, new Date(at).toISOString().slice(0, 10));
  return folded ? folded.onlineAtEnd : null;
}

/** Packets per UTC day from `fromDay` on (the ingest's daily statistics). */
export async function packetsPerDay(
  db: Kysely<Database>,
  stationId: string,
  fromDay: string,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('stationDailyStats')
    .select(['day', (eb) => eb.fn.sum<number | string>('frames').as('frames')])
    .where('stationId', '=', stationId)
    .where('day', '>=', fromDay)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.frames)]));
}

// Retention

/** Stations with transitions older than `before`. */
export async function stationsWithEventsBefore(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('stationStatusEvents')
    .select('stationId')
    .distinct()
    .where('at', '<', before)
    .limit(limit)
    .execute();
  return rows.map((r) => r.stationId);
}

/** The station's last folded day (before `beforeDay`, YYYY-MM-DD, when given). */
export async function latestUptimeDay(
  db: Kysely<Database>,
  stationId: string,
  beforeDay?: string,
): Promise<UptimeDayRow | null> {
  let query = db.selectFrom('stationUptimeDaily').selectAll().where('stationId', '=', stationId);
  if (beforeDay !== undefined) query = query.where('day', '<', beforeDay);
  const row = await query.orderBy('day', 'desc').limit(1).executeTakeFirst();
  return row
    ? {
        ...row,
        onlineMs: Number(row.onlineMs),
        knownMs: Number(row.knownMs),
        onlineAtEnd: row.onlineAtEnd === 1,
      }
    : null;
}

/** Writes folded days and removes the transitions they replace, in one transaction. */
export async function foldTransitions(
  db: Kysely<Database>,
  stationId: string,
  before: number,
  days: readonly UptimeDayRow[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < days.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('stationUptimeDaily')
        .values(
          days
            .slice(i, i + INSERT_CHUNK)
            .map((d) => ({ ...d, onlineAtEnd: d.onlineAtEnd ? 1 : 0 })),
        )
        .onConflict((oc) =>
          oc.columns(['stationId', 'day']).doUpdateSet((eb) => ({
            onlineMs: eb.ref('excluded.onlineMs'),
            knownMs: eb.ref('excluded.knownMs'),
            outages: eb.ref('excluded.outages'),
            onlineAtEnd: eb.ref('excluded.onlineAtEnd'),
          })),
        )
        .execute();
    }
    await trx
      .deleteFrom('stationStatusEvents')
      .where('stationId', '=', stationId)
      .where('at', '<', before)
      .execute();
  });
}

export async function deleteUptimeDaysBefore(db: Kysely<Database>, day: string): Promise<void> {
  await db.deleteFrom('stationUptimeDaily').where('day', '<', day).execute();
}
