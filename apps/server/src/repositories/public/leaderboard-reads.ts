// Leaderboard rankings (GET /v1/leaderboards), read from the running aggregates of migration 0015
// and the stations' and satellites' own counters; never from packets or receptions. Each read
// returns the top `limit` with ties broken by id, so equal values list in a stable order. They read
// aside (Db.readAside): on SQLite on the read thread, not on the event loop.
import { sql } from 'kysely';
import type { Db } from '../../db/connect';

export interface StationRanked {
  id: string;
  name: string;
  userId: string;
  value: number;
}

export interface SatelliteRanked {
  name: string;
  displayName: string;
  value: number;
}

/** The window of a 30-day board: its first UTC day and first millisecond. */
export interface Window {
  fromDay: string;
  fromMs: number;
}

/** All time: the stations' own running totals (what their pages show). */
export async function topStationsAllTime(
  { db, readAside }: Db,
  board: 'packets' | 'distance',
  limit: number,
): Promise<StationRanked[]> {
  const column = board === 'packets' ? 'confirmedPackets' : 'recordDistanceKm';
  return readAside(
    db
      .selectFrom('stations')
      .select(['id', 'name', 'userId', `${column} as value`])
      .where(column, '>', 0)
      .orderBy(column, 'desc')
      .orderBy('id')
      .limit(limit)
      .compile(),
  );
}

/**
 * Satellites heard per station (since `fromMs`, or ever), for the stations after `afterId` in id
 * order, at most `stations` of them: a page of the primary key, so no read holds the database long.
 */
export async function satellitesHeardPage(
  { db, readAside }: Db,
  fromMs: number | null,
  afterId: string,
  stations: number,
): Promise<{ stationId: string; value: number }[]> {
  let heard = db
    .selectFrom('leaderboardStationSatellites')
    .select(['stationId', sql<number>`count(*)`.as('value')])
    .where('stationId', '>', afterId)
    .groupBy('stationId')
    .orderBy('stationId')
    .limit(stations);
  if (fromMs !== null) heard = heard.where('lastHeard', '>=', fromMs);
  // PostgreSQL returns count() as text.
  return (await readAside(heard.compile())).map((r) => ({
    stationId: r.stationId,
    value: Number(r.value),
  }));
}

export interface StationDayRow {
  stationId: string;
  confirmedPackets: number;
  recordDistanceKm: number | null;
}

/**
 * One UTC day's aggregates of the stations after `afterId` in id order, at most `stations` of them
 * (a range of the primary key).
 */
export async function stationDayRows(
  { db, readAside }: Db,
  day: string,
  afterId: string,
  stations: number,
): Promise<StationDayRow[]> {
  return readAside(
    db
      .selectFrom('leaderboardStationDays')
      .select(['stationId', 'confirmedPackets', 'recordDistanceKm'])
      .where('day', '=', day)
      .where('stationId', '>', afterId)
      .orderBy('stationId')
      .limit(stations)
      .compile(),
  );
}

/** The stations of these ids that exist. */
export async function stationNames(
  { db, readAside }: Db,
  ids: readonly string[],
): Promise<{ id: string; name: string; userId: string }[]> {
  if (ids.length === 0) return [];
  return readAside(
    db.selectFrom('stations').select(['id', 'name', 'userId']).where('id', 'in', ids).compile(),
  );
}

export async function topSatellites(
  { db, readAside }: Db,
  window: Window | null,
  limit: number,
): Promise<SatelliteRanked[]> {
  if (!window) {
    return readAside(
      db
        .selectFrom('satellites')
        .select(['name', 'displayName', 'confirmedPackets as value'])
        .where('confirmedPackets', '>', 0)
        .orderBy('confirmedPackets', 'desc')
        .orderBy('name')
        .limit(limit)
        .compile(),
    );
  }
  const totals = db
    .selectFrom('leaderboardSatelliteDays')
    .select(['satellite', sql<number>`sum(packets)`.as('value')])
    .where('day', '>=', window.fromDay)
    .groupBy('satellite');
  const rows = await readAside(
    db
      .selectFrom(totals.as('t'))
      .innerJoin('satellites', 'satellites.name', 't.satellite')
      .select(['satellites.name', 'satellites.displayName', 't.value'])
      .where('t.value', '>', 0)
      .orderBy('t.value', 'desc')
      .orderBy('satellites.name')
      .limit(limit)
      .compile(),
  );
  return rows.map((r) => ({ ...r, value: Number(r.value) }));
}
