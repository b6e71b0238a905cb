// Packet writes of the ingest: packets, their receptions, and the per-satellite and per-station-day
// counters that move with them. Everything here runs inside the ingest's batch transaction.
import { sql, type Kysely } from 'kysely';
import type { Database, NewPacket, NewReception } from '../db/schema';
import { insertJsonRows } from './bulk-writes';

// Both dialects accept well over 30,000 bound parameters per statement; stay below that.
const MAX_PARAMS_PER_STATEMENT = 30_000;
/** Columns of a packet row (db/schema.ts PacketsTable). */
const PACKET_COLUMNS = 27;

function chunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS_PER_STATEMENT / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

// Wide rows go as multi-row VALUES through the query builder: measured faster than JSON unpacking
// (each column re-reads the row's JSON) and than raw templates (one node per value to compile).
export async function insertPackets(
  db: Kysely<Database>,
  rows: readonly NewPacket[],
): Promise<void> {
  for (const part of chunks(rows, PACKET_COLUMNS))
    await db.insertInto('packets').values(part).execute();
}

export async function insertReceptions(
  db: Kysely<Database>,
  rows: readonly NewReception[],
): Promise<void> {
  for (const part of chunks(rows, 17)) await db.insertInto('receptions').values(part).execute();
}

/** Which of `ids` are stored packets (asked 500 at a time). */
export async function storedPacketIds(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Set<string>> {
  const existing = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const r of await db.selectFrom('packets').select('id').where('id', 'in', chunk).execute())
      existing.add(r.id);
  }
  return existing;
}

/** Inserts the packets not stored yet; returns the ids it inserted. */
export async function insertPacketsIfAbsent(
  db: Kysely<Database>,
  rows: readonly NewPacket[],
): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (const part of chunks(rows, PACKET_COLUMNS)) {
    const ids = await db
      .insertInto('packets')
      .values(part)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    for (const { id } of ids) inserted.add(id);
  }
  return inserted;
}

/** Inserts the receptions not stored yet; returns `packetId\nstationId` of those it inserted. */
export async function insertReceptionsIfAbsent(
  db: Kysely<Database>,
  rows: readonly NewReception[],
): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (const part of chunks(rows, 17)) {
    const keys = await db
      .insertInto('receptions')
      .values(part)
      .onConflict((oc) => oc.columns(['packetId', 'stationId']).doNothing())
      .returning(['packetId', 'stationId'])
      .execute();
    for (const k of keys) inserted.add(`${k.packetId}\n${k.stationId}`);
  }
  return inserted;
}

/** More stations heard a packet stored by an earlier batch. */
export async function addToStationNumbers(
  db: Kysely<Database>,
  items: readonly { id: string; add: number }[],
): Promise<void> {
  for (const item of items) {
    await db
      .updateTable('packets')
      .set((eb) => ({ stationNumber: eb('stationNumber', '+', item.add) }))
      .where('id', '=', item.id)
      .execute();
  }
}

export interface SatelliteReceptionStats {
  name: string;
  /** receptions (one packet heard by 3 stations counts 3) */
  frames: number;
  /** new packets */
  confirmedPackets: number;
  lastPacketTime: number;
}

export async function addSatelliteStats(
  db: Kysely<Database>,
  stats: readonly SatelliteReceptionStats[],
): Promise<void> {
  for (const s of stats) {
    await db
      .updateTable('satellites')
      .set((eb) => ({
        frames: eb('frames', '+', s.frames),
        confirmedPackets: eb('confirmedPackets', '+', s.confirmedPackets),
        lastPacketTime: eb
          .case()
          .when(
            eb.or([eb('lastPacketTime', 'is', null), eb('lastPacketTime', '<', s.lastPacketTime)]),
          )
          .then(s.lastPacketTime)
          .else(eb.ref('lastPacketTime'))
          .end(),
      }))
      .where('name', '=', s.name)
      .execute();
  }
}

export interface DailyStationStat {
  stationId: string;
  /** UTC YYYY-MM-DD */
  day: string;
  satellite: string;
  frames: number;
}

/** Adds frames per station, day and satellite. Keys must be unique within one call. */
export async function addDailyStats(
  db: Kysely<Database>,
  stats: readonly DailyStationStat[],
): Promise<void> {
  await insertJsonRows(
    db,
    'station_daily_stats',
    stats.map((s) => ({
      station_id: s.stationId,
      day: s.day,
      satellite: s.satellite,
      frames: s.frames,
    })),
    [
      ['station_id', 'text'],
      ['day', 'text'],
      ['satellite', 'text'],
      ['frames', 'integer'],
    ],
    sql`ON CONFLICT (station_id, day, satellite) DO UPDATE SET frames = station_daily_stats.frames + excluded.frames`,
  );
}

/** The satellite fields the ingest, the simulator and auto-tune work from. */
export interface NetworkSatelliteRow {
  name: string;
  displayName: string;
  norad: number | null;
  status: string;
  /** JSON array of modem configurations */
  configurations: string;
  /** JSON [name, line1, line2] or null */
  tle: string | null;
  decoder: string | null;
  /** 1: opted in to forwarding to SatNOGS DB */
  satnogsForward: number;
}

export async function loadNetworkSatellites(db: Kysely<Database>): Promise<NetworkSatelliteRow[]> {
  return db
    .selectFrom('satellites')
    .select([
      'name',
      'displayName',
      'norad',
      'status',
      'configurations',
      'tle',
      'decoder',
      'satnogsForward',
    ])
    .orderBy('name')
    .execute();
}
