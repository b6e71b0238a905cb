// Leaderboard aggregates (migration 0015), written in the ingest's batch transaction: one upsert
// statement per table per batch, whatever the number of stations. Keys must be unique within one
// call (the batch's tally sums them first).
import { sql, type Kysely } from 'kysely';
import type { Database, NewPacket } from '../db/schema';
import { utcDay } from '../health/uptime';
import { insertJsonRows } from './bulk-writes';

export interface StationDayTally {
  day: string;
  stationId: string;
  confirmedPackets: number;
  recordDistanceKm: number | null;
}

export interface StationSatelliteTally {
  stationId: string;
  satellite: string;
  firstHeard: number;
  lastHeard: number;
}

export interface SatelliteDayTally {
  day: string;
  satellite: string;
  packets: number;
}

export interface LeaderboardTallies {
  stationDays: readonly StationDayTally[];
  stationSatellites: readonly StationSatelliteTally[];
  satelliteDays: readonly SatelliteDayTally[];
}

// The upserts' conflict clauses, shared with the SQLite writer's prepared statements
// (sqlite/ingest-rows.ts).
export const STATION_DAYS_ON_CONFLICT = `ON CONFLICT (day, station_id) DO UPDATE SET
  confirmed_packets = leaderboard_station_days.confirmed_packets + excluded.confirmed_packets,
  record_distance_km = CASE WHEN excluded.record_distance_km IS NOT NULL AND
    (leaderboard_station_days.record_distance_km IS NULL OR excluded.record_distance_km > leaderboard_station_days.record_distance_km)
    THEN excluded.record_distance_km ELSE leaderboard_station_days.record_distance_km END`;
export const STATION_SATELLITES_ON_CONFLICT = `ON CONFLICT (station_id, satellite) DO UPDATE SET
  first_heard = CASE WHEN excluded.first_heard < leaderboard_station_satellites.first_heard
    THEN excluded.first_heard ELSE leaderboard_station_satellites.first_heard END,
  last_heard = CASE WHEN excluded.last_heard > leaderboard_station_satellites.last_heard
    THEN excluded.last_heard ELSE leaderboard_station_satellites.last_heard END`;
export const SATELLITE_DAYS_ON_CONFLICT = `ON CONFLICT (day, satellite) DO UPDATE SET
  packets = leaderboard_satellite_days.packets + excluded.packets`;

export async function addLeaderboardTallies(
  db: Kysely<Database>,
  tallies: LeaderboardTallies,
): Promise<void> {
  await insertJsonRows(
    db,
    'leaderboard_station_days',
    tallies.stationDays.map((t) => ({
      day: t.day,
      station_id: t.stationId,
      confirmed_packets: t.confirmedPackets,
      record_distance_km: t.recordDistanceKm,
    })),
    [
      ['day', 'text'],
      ['station_id', 'text'],
      ['confirmed_packets', 'integer'],
      ['record_distance_km', 'double precision'],
    ],
    sql.raw(STATION_DAYS_ON_CONFLICT),
  );
  await insertJsonRows(
    db,
    'leaderboard_station_satellites',
    tallies.stationSatellites.map((t) => ({
      station_id: t.stationId,
      satellite: t.satellite,
      first_heard: t.firstHeard,
      last_heard: t.lastHeard,
    })),
    [
      ['station_id', 'text'],
      ['satellite', 'text'],
      ['first_heard', 'bigint'],
      ['last_heard', 'bigint'],
    ],
    sql.raw(STATION_SATELLITES_ON_CONFLICT),
  );
  await addSatelliteDays(db, tallies.satelliteDays);
}

/** Packets per satellite and day; also for packets imported as history. */
export async function addSatelliteDays(
  db: Kysely<Database>,
  tallies: readonly SatelliteDayTally[],
): Promise<void> {
  await insertJsonRows(
    db,
    'leaderboard_satellite_days',
    tallies,
    [
      ['day', 'text'],
      ['satellite', 'text'],
      ['packets', 'integer'],
    ],
    sql.raw(SATELLITE_DAYS_ON_CONFLICT),
  );
}

/** Packets per satellite and day of packets stored outside the ingest (imported as history). */
export function satelliteDaysOf(packets: readonly NewPacket[]): SatelliteDayTally[] {
  const days = new Map<string, SatelliteDayTally>();
  for (const p of packets) {
    if (p.crcError) continue;
    const day = utcDay(Number(p.serverTime));
    const key = `${day}\n${p.satellite}`;
    const d = days.get(key);
    if (d) d.packets += 1;
    else days.set(key, { day, satellite: p.satellite, packets: 1 });
  }
  return [...days.values()];
}

/**
 * A deleted station leaves the boards: its aggregates go with it (the satellites' packets stay,
 * like its packets and receptions). A rare write: the per-day rows are found by a scan.
 */
export async function deleteStationLeaderboards(
  db: Kysely<Database>,
  stationId: string,
): Promise<void> {
  await db.deleteFrom('leaderboardStationDays').where('stationId', '=', stationId).execute();
  await db.deleteFrom('leaderboardStationSatellites').where('stationId', '=', stationId).execute();
}
