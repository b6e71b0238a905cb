// Offline alerts: the owners' choices, the outages the alert job decided on, and the alert mails
// per owner and UTC day. The job's state lives here (not in memory), so a restart or another
// instance taking over the job carries on where it stopped.
import { sql, type Kysely } from 'kysely';
import { OFFLINE_ALERT_DELAYS_MINUTES, type OfflineAlertsUpdate } from '@tinygs/contracts';
import type { Database } from '../db/schema';

export interface OfflineAlertPreference extends OfflineAlertsUpdate {
  enabledAt: number;
}

export interface OutageRow {
  stationId: string;
  name: string;
  userId: string;
  /** the offline transition that began the outage */
  outageAt: number;
}

export interface ReturnRow extends OutageRow {
  /** the first online transition after the outage began */
  backAt: number;
  /** whether the owner still has the alerts switched on */
  enabled: boolean;
}

export async function findAlertPreference(
  db: Kysely<Database>,
  userId: string,
): Promise<OfflineAlertPreference | null> {
  const row = await db
    .selectFrom('offlineAlertPreferences')
    .selectAll()
    .where('userId', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const delay = OFFLINE_ALERT_DELAYS_MINUTES.find((m) => m === row.delayMinutes);
  return {
    enabled: row.enabled === 1,
    delayMinutes: delay ?? OFFLINE_ALERT_DELAYS_MINUTES[1],
    enabledAt: Number(row.enabledAt),
  };
}

/**
 * Saves the owner's choice. Switching on starts the alerts from `now`: outages that began before
 * are not alerted (they may be months old).
 */
export async function saveAlertPreference(
  db: Kysely<Database>,
  userId: string,
  choice: OfflineAlertsUpdate,
  now: number,
): Promise<void> {
  const current = await findAlertPreference(db, userId);
  const enabledAt = current?.enabled && choice.enabled ? current.enabledAt : now;
  const values = {
    enabled: choice.enabled ? 1 : 0,
    delayMinutes: choice.delayMinutes,
    enabledAt,
  };
  await db
    .insertInto('offlineAlertPreferences')
    .values({ userId, ...values })
    .onConflict((oc) => oc.column('userId').doUpdateSet(values))
    .execute();
}

/**
 * Outages due for an alert at `now`: stations stored as offline whose newest transition is an
 * offline one at least their owner's chosen delay old and after the owner switched alerts on,
 * not decided on yet; at most `limit`, in no particular order (the rest are found next round).
 */
export async function dueOutages(
  db: Kysely<Database>,
  now: number,
  limit: number,
): Promise<OutageRow[]> {
  // The station's newest transition, looked up through (station_id, at) for each station of the
  // owners who want alerts. Joining the transitions table instead lets a planner without
  // statistics (SQLite) walk the whole table.
  const latestAt = sql<number>`(SELECT max(x.at) FROM station_status_events x WHERE x.station_id = s.id)`;
  const latestOnline = sql<number>`(SELECT x.online FROM station_status_events x WHERE x.station_id = s.id ORDER BY x.at DESC LIMIT 1)`;
  const rows = await db
    .selectFrom('offlineAlertPreferences as p')
    .innerJoin('stations as s', 's.userId', 'p.userId')
    .select(['s.id as stationId', 's.name', 's.userId', latestAt.as('outageAt')])
    .where('p.enabled', '=', 1)
    .where('s.status', '=', 0)
    .where((eb) =>
      eb.and([
        eb(latestOnline, '=', 0),
        eb(latestAt, '>=', eb.ref('p.enabledAt')),
        // One comparison per choice keeps the arithmetic out of SQL (and the parameter a bigint).
        eb.or(
          OFFLINE_ALERT_DELAYS_MINUTES.map((m) =>
            eb.and([eb('p.delayMinutes', '=', m), eb(latestAt, '<=', now - m * 60_000)]),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('offlineAlerts as a')
              .select('a.stationId')
              .whereRef('a.stationId', '=', 's.id')
              .where('a.outageAt', '=', latestAt),
          ),
        ),
      ]),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, outageAt: Number(r.outageAt) }));
}

/**
 * Decides on one owner's due outages in one transaction: alerted (and the day's count raised)
 * while the owner has alerts left today, otherwise passed over for good. Outages another run
 * decided on meanwhile are left alone. `day`: the UTC day of `now`. Answers the owner's alerts today counting this one, or
 * null when the outages were passed over.
 */
export async function decideOutages(
  db: Kysely<Database>,
  userId: string,
  outages: readonly OutageRow[],
  perDay: number,
  now: number,
  day: string,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('offlineAlertCounts')
      .select('sent')
      .where('userId', '=', userId)
      .where('day', '=', day)
      .executeTakeFirst();
    const sent = count?.sent ?? 0;
    const alert = sent < perDay;
    if (alert) {
      await trx
        .insertInto('offlineAlertCounts')
        .values({ userId, day, sent: sent + 1 })
        .onConflict((oc) => oc.columns(['userId', 'day']).doUpdateSet({ sent: sent + 1 }))
        .execute();
    }
    await trx
      .insertInto('offlineAlerts')
      .values(
        outages.map((o) => ({
          stationId: o.stationId,
          outageAt: o.outageAt,
          userId,
          alertedAt: alert ? now : null,
          backAt: null,
          backSent: 0,
        })),
      )
      .onConflict((oc) => oc.columns(['stationId', 'outageAt']).doNothing())
      .execute();
    return alert ? sent + 1 : null;
  });
}

/** An alert that could not be sent: the outages become due again and the count is given back. */
export async function undoAlert(
  db: Kysely<Database>,
  userId: string,
  outages: readonly OutageRow[],
  day: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const o of outages) {
      await trx
        .deleteFrom('offlineAlerts')
        .where('stationId', '=', o.stationId)
        .where('outageAt', '=', o.outageAt)
        .execute();
    }
    await trx
      .updateTable('offlineAlertCounts')
      .set((eb) => ({ sent: eb('sent', '-', 1) }))
      .where('userId', '=', userId)
      .where('day', '=', day)
      .where('sent', '>', 0)
      .execute();
  });
}

/** Alerted outages whose station has come online since, oldest first. */
export async function returnedStations(db: Kysely<Database>, limit: number): Promise<ReturnRow[]> {
  const rows = await db
    .selectFrom('offlineAlerts as a')
    .innerJoin('stations as s', 's.id', 'a.stationId')
    .leftJoin('offlineAlertPreferences as p', 'p.userId', 'a.userId')
    .select((eb) => [
      'a.stationId',
      's.name',
      'a.userId',
      'a.outageAt',
      'p.enabled',
      eb
        .selectFrom('stationStatusEvents as x')
        .select((x) => x.fn.min('x.at').as('first'))
        .whereRef('x.stationId', '=', 'a.stationId')
        .where('x.online', '=', 1)
        .whereRef('x.at', '>', 'a.outageAt')
        .as('backAt'),
    ])
    .where('a.alertedAt', 'is not', null)
    .where('a.backAt', 'is', null)
    // Only those back: the stations still offline must not fill the round's rows.
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('stationStatusEvents as y')
          .select('y.at')
          .whereRef('y.stationId', '=', 'a.stationId')
          .where('y.online', '=', 1)
          .whereRef('y.at', '>', 'a.outageAt'),
      ),
    )
    .orderBy('a.outageAt')
    .limit(limit)
    .execute();
  return rows
    .filter((r) => r.backAt !== null)
    .map((r) => ({
      stationId: r.stationId,
      name: r.name,
      userId: r.userId,
      outageAt: Number(r.outageAt),
      backAt: Number(r.backAt),
      enabled: r.enabled === 1,
    }));
}

/**
 * Records the return of the stations (`sent`: whether the back note goes out; null: undone, the
 * note could not be sent and is tried again).
 */
export async function markReturned(
  db: Kysely<Database>,
  rows: readonly ReturnRow[],
  sent: boolean | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const r of rows) {
      await trx
        .updateTable('offlineAlerts')
        .set({ backAt: sent === null ? null : r.backAt, backSent: sent ? 1 : 0 })
        .where('stationId', '=', r.stationId)
        .where('outageAt', '=', r.outageAt)
        .execute();
    }
  });
}

/**
 * Forgets outages older than `before` that are settled (returned, or passed over) and day counts
 * before `beforeDay`. Outages are kept as long as their offline transition is (the health
 * retention), so none is ever decided on twice.
 */
export async function pruneOfflineAlerts(
  db: Kysely<Database>,
  before: number,
  beforeDay: string,
): Promise<void> {
  await db
    .deleteFrom('offlineAlerts')
    .where('outageAt', '<', before)
    .where((eb) => eb.or([eb('backAt', 'is not', null), eb('alertedAt', 'is', null)]))
    .execute();
  await db.deleteFrom('offlineAlertCounts').where('day', '<', beforeDay).execute();
}
