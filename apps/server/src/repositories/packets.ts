// Packet writes of the ingest: packets, their receptions, and the per-satellite and per-station-day
// counters that move with them. Everything here runs inside the ingest's batch transaction.
import { sql, type Kysely } from 'kysely';
import type { Database, NewPacket, NewReception } from '../db/schema';
import { insertJsonRows, insertValueRows, type JsonColumn } from './bulk-writes';

const PACKET_COLUMNS: readonly JsonColumn[] = [
  ['id', 'text'],
  ['satellite', 'text'],
  ['norad', 'integer'],
  ['server_time', 'bigint'],
  ['raw', 'text'],
  ['frame_hash', 'text'],
  ['mode', 'text'],
  ['freq', 'double precision'],
  ['sf', 'integer'],
  ['cr', 'integer'],
  ['bw', 'double precision'],
  ['bitrate', 'double precision'],
  ['freq_dev', 'double precision'],
  ['rx_bw', 'double precision'],
  ['parsed', 'text'],
  ['crc_error', 'integer'],
  ['is_test', 'integer'],
  ['sat_lat', 'double precision'],
  ['sat_lng', 'double precision'],
  ['sat_alt', 'double precision'],
  ['sun_lit', 'integer'],
  ['eclipse_depth', 'double precision'],
  ['foot_print', 'double precision'],
  ['station_number', 'integer'],
  ['tx_power_mw', 'double precision'],
  ['historical', 'integer'],
];

const RECEPTION_COLUMNS: readonly JsonColumn[] = [
  ['packet_id', 'text'],
  ['station_id', 'text'],
  ['user_id', 'text'],
  ['server_time', 'bigint'],
  ['lat', 'double precision'],
  ['lng', 'double precision'],
  ['distance', 'double precision'],
  ['elevation', 'double precision'],
  ['azimuth', 'double precision'],
  ['usec_time', 'bigint'],
  ['doppler', 'double precision'],
  ['f_doppler', 'double precision'],
  ['frequency_offset', 'double precision'],
  ['crc_error', 'integer'],
  ['rssi', 'double precision'],
  ['snr', 'double precision'],
  ['frequency_error', 'double precision'],
];

export async function insertPackets(db: Kysely<Database>, rows: readonly NewPacket[]): Promise<void> {
  await insertValueRows(
    db,
    'packets',
    PACKET_COLUMNS,
    rows.map((p) => [
      p.id,
      p.satellite,
      p.norad ?? null,
      p.serverTime,
      p.raw,
      p.frameHash,
      p.mode,
      p.freq,
      p.sf ?? null,
      p.cr ?? null,
      p.bw ?? null,
      p.bitrate ?? null,
      p.freqDev ?? null,
      p.rxBw ?? null,
      p.parsed ?? null,
      p.crcError ?? 0,
      p.isTest ?? 0,
      p.satLat ?? null,
      p.satLng ?? null,
      p.satAlt ?? null,
      p.sunLit ?? null,
      p.eclipseDepth ?? null,
      p.footPrint ?? null,
      p.stationNumber ?? 0,
      p.txPowerMw ?? null,
      p.historical ?? 0,
    ]),
  );
}

export async function insertReceptions(db: Kysely<Database>, rows: readonly NewReception[]): Promise<void> {
  await insertValueRows(
    db,
    'receptions',
    RECEPTION_COLUMNS,
    rows.map((r) => [
      r.packetId,
      r.stationId,
      r.userId,
      r.serverTime,
      r.lat,
      r.lng,
      r.distance ?? null,
      r.elevation ?? null,
      r.azimuth ?? null,
      r.usecTime ?? null,
      r.doppler ?? null,
      r.fDoppler ?? null,
      r.frequencyOffset ?? null,
      r.crcError ?? 0,
      r.rssi ?? null,
      r.snr ?? null,
      r.frequencyError ?? null,
    ]),
  );
}

/** More stations heard a packet stored by an earlier batch. */
export async function addToStationNumbers(db: Kysely<Database>, items: readonly { id: string; add: number }[]): Promise<void> {
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

export async function addSatelliteStats(db: Kysely<Database>, stats: readonly SatelliteReceptionStats[]): Promise<void> {
  for (const s of stats) {
    await db
      .updateTable('satellites')
      .set((eb) => ({
        frames: eb('frames', '+', s.frames),
        confirmedPackets: eb('confirmedPackets', '+', s.confirmedPackets),
        lastPacketTime: eb
          .case()
          .when(eb.or([eb('lastPacketTime', 'is', null), eb('lastPacketTime', '<', s.lastPacketTime)]))
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
export async function addDailyStats(db: Kysely<Database>, stats: readonly DailyStationStat[]): Promise<void> {
  await insertJsonRows(
    db,
    'station_daily_stats',
    stats.map((s) => ({ station_id: s.stationId, day: s.day, satellite: s.satellite, frames: s.frames })),
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
}

export async function loadNetworkSatellites(db: Kysely<Database>): Promise<NetworkSatelliteRow[]> {
  return db
    .selectFrom('satellites')
    .select(['name', 'displayName', 'norad', 'status', 'configurations', 'tle', 'decoder'])
    .orderBy('name')
    .execute();
}
