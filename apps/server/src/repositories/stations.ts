// Station writes of the network part (what the firmware reports over MQTT, reception counters)
// and the few reads the broker, live events and auto-tune need. Read functions of the public API
// live in their own files.
import { sql, type Kysely } from 'kysely';
import { BANDS, type Band, type StationListItem } from '@tinygs/contracts';
import type { Database, NewStation, StationRow, StationUpdate } from '../db/schema';
import { jsonRowSource } from './bulk-writes';
import { deleteStationLeaderboards } from './leaderboards';
import { deleteStationPictures } from './pictures';

/**
 * What a station starts with besides what its firmware reports: the owner's settings at their
 * defaults and no totals yet.
 */
const NEW_STATION_DEFAULTS = {
  status: 0,
  elevationM: null,
  satellite: null,
  gitVersion: null,
  board: null,
  mac: null,
  localIp: null,
  wifiRssi: null,
  radioStatus: null,
  tx: 0,
  modemConf: null,
  lastSeen: null,
  lastPacketTime: null,
  autoTune: null,
  test: 0,
  autoUpdate: 1,
  beta: 0,
  description: '',
  antenna: null,
  antennaBandLowMhz: 100,
  antennaBandHighMhz: 960,
  recordDistanceKm: 0,
  telemetryPackets: 0,
  confirmedPackets: 0,
  crcErrors: 0,
} as const satisfies Partial<NewStation>;

/** The fields a new station row must be given; every other column starts at its default. */
export type NewStationFields = Pick<
  NewStation,
  'id' | 'name' | 'userId' | 'lat' | 'lng' | 'version' | 'creationDate'
> &
  Partial<NewStation>;

/**
 * The one constructor of a new station row (offline, nothing reported beyond `fields`, settings
 * at their defaults, no totals). Used by the first welcome and by the test factories.
 */
export function newStationRow(fields: NewStationFields): NewStation {
  return { ...NEW_STATION_DEFAULTS, ...fields };
}

/** What `tele/welcome` sets; undefined fields keep their stored value. */
export interface WelcomeWrite {
  id: string;
  name: string;
  userId: string;
  at: number;
  lat: number;
  lng: number;
  version: number;
  tx: boolean;
  gitVersion?: string;
  board?: string;
  mac?: string;
  localIp?: string;
  satellite?: string;
  /** modem JSON text exactly as the station sent it */
  modemConf?: string;
}

export interface WelcomeResult {
  created: boolean;
  /** the user had no station before this one */
  firstOfUser: boolean;
  /** it was stored as offline (or not at all) before */
  cameOnline: boolean;
}

/** Creates the station `{name}@{userId}` or updates it; the station is online afterwards. */
export async function writeWelcome(db: Kysely<Database>, w: WelcomeWrite): Promise<WelcomeResult> {
  const reported = {
    status: 1,
    lat: w.lat,
    lng: w.lng,
    version: w.version,
    tx: w.tx ? 1 : 0,
    lastSeen: w.at,
    ...(w.gitVersion !== undefined ? { gitVersion: w.gitVersion } : {}),
    ...(w.board !== undefined ? { board: w.board } : {}),
    ...(w.mac !== undefined ? { mac: w.mac } : {}),
    ...(w.localIp !== undefined ? { localIp: w.localIp } : {}),
    ...(w.satellite !== undefined ? { satellite: w.satellite } : {}),
    ...(w.modemConf !== undefined ? { modemConf: w.modemConf } : {}),
  };
  const before = await db
    .selectFrom('stations')
    .select('status')
    .where('id', '=', w.id)
    .executeTakeFirst();
  if (before) {
    await db.updateTable('stations').set(reported).where('id', '=', w.id).execute();
    return { created: false, firstOfUser: false, cameOnline: before.status !== 1 };
  }
  const sibling = await db
    .selectFrom('stations')
    .select('id')
    .where('userId', '=', w.userId)
    .limit(1)
    .executeTakeFirst();
  await db
    .insertInto('stations')
    .values(
      newStationRow({
        id: w.id,
        name: w.name,
        userId: w.userId,
        status: 1,
        lat: w.lat,
        lng: w.lng,
        satellite: w.satellite ?? null,
        version: w.version,
        gitVersion: w.gitVersion ?? null,
        board: w.board ?? null,
        mac: w.mac ?? null,
        localIp: w.localIp ?? null,
        tx: w.tx ? 1 : 0,
        modemConf: w.modemConf ?? null,
        lastSeen: w.at,
        creationDate: w.at,
      }),
    )
    .execute();
  return { created: true, firstOfUser: sibling === undefined, cameOnline: true };
}

/**
 * `tele/ping` (or any sign of life): online, last seen now, Wi-Fi and radio state when reported.
 * With `detectFlip`, whether it was stored as offline before (one more statement).
 */
export async function writeSeen(
  db: Kysely<Database>,
  s: { id: string; at: number; wifiRssi?: number; radioStatus?: number },
  detectFlip = false,
): Promise<boolean> {
  let flipped = false;
  if (detectFlip) {
    const res = await db
      .updateTable('stations')
      .set({ status: 1 })
      .where('id', '=', s.id)
      .where('status', '!=', 1)
      .executeTakeFirst();
    flipped = Number(res.numUpdatedRows) > 0;
  }
  await db
    .updateTable('stations')
    .set({
      status: 1,
      lastSeen: s.at,
      ...(s.wifiRssi !== undefined ? { wifiRssi: Math.round(s.wifiRssi) } : {}),
      ...(s.radioStatus !== undefined ? { radioStatus: s.radioStatus } : {}),
    })
    .where('id', '=', s.id)
    .execute();
  return flipped;
}

/** Marks the stations offline; returns those that were online (and, with `silentBefore`, silent). */
export async function writeOffline(
  db: Kysely<Database>,
  ids: readonly string[],
  silentBefore?: number,
): Promise<string[]> {
  if (ids.length === 0) return [];
  let query = db
    .updateTable('stations')
    .set({ status: 0 })
    .where('id', 'in', [...ids])
    .where('status', '!=', 0);
  if (silentBefore !== undefined) query = query.where('lastSeen', '<', silentBefore);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/** Online stations whose stored last sign of life is older than `before` (shared-broker sweep). */
export async function loadSilentStationIds(
  db: Kysely<Database>,
  before: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('stations')
    .select('id')
    .where('status', '=', 1)
    .where('lastSeen', '<', before)
    .execute();
  return rows.map((r) => r.id);
}

/** Ids of every station and of those stored as online (instances sharing a broker catch up). */
export async function loadStationStates(
  db: Kysely<Database>,
): Promise<{ id: string; online: boolean }[]> {
  const rows = await db.selectFrom('stations').select(['id', 'status']).execute();
  return rows.map((r) => ({ id: r.id, online: r.status === 1 }));
}

/** One station's existence and status (shared ingest: created through another instance?). */
export async function loadStationState(
  db: Kysely<Database>,
  id: string,
): Promise<{ online: boolean } | null> {
  const row = await db
    .selectFrom('stations')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { online: row.status === 1 } : null;
}

/** At start-up nobody is connected to a freshly started broker: every station is offline. */
export async function markAllStationsOffline(db: Kysely<Database>): Promise<number> {
  const res = await db
    .updateTable('stations')
    .set({ status: 0 })
    .where('status', '!=', 0)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function loadStationIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('stations').select('id').execute();
  return rows.map((r) => r.id);
}

/** The ids of one owner's stations (the broker's station cap re-counts them). */
export async function loadStationIdsOfUser(
  db: Kysely<Database>,
  userId: string,
): Promise<string[]> {
  const rows = await db.selectFrom('stations').select('id').where('userId', '=', userId).execute();
  return rows.map((r) => r.id);
}

export async function setStationSatellite(
  db: Kysely<Database>,
  id: string,
  satellite: string,
): Promise<void> {
  await db.updateTable('stations').set({ satellite }).where('id', '=', id).execute();
}

/** Turns auto-tune on for stations whose owner never chose (the built-in simulator's stations). */
export async function enableAutoTuneWhereUnset(
  db: Kysely<Database>,
  ids: readonly string[],
  band: Band,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('stations')
    .set({ autoTune: band })
    .where('id', 'in', [...ids])
    .where('autoTune', 'is', null)
    .execute();
}

/** Reception counters of one station, summed over one write batch. */
export interface StationReceptionStats {
  id: string;
  telemetryPackets: number;
  confirmedPackets: number;
  crcErrors: number;
  /** newest non-CRC reception of the batch, null when there was none */
  lastPacketTime: number | null;
  lastSeen: number;
  /** longest distance of the batch, km; null when unknown */
  maxDistanceKm: number | null;
}

/** Adds batch counters to their stations in one UPDATE over the batch's rows (JSON). */
export async function addStationReceptionStats(
  db: Kysely<Database>,
  stats: readonly StationReceptionStats[],
): Promise<void> {
  if (stats.length === 0) return;
  const rows = stats.map((s) => ({
    id: s.id,
    tp: s.telemetryPackets,
    cp: s.confirmedPackets,
    ce: s.crcErrors,
    lpt: s.lastPacketTime,
    ls: s.lastSeen,
    d: s.maxDistanceKm,
  }));
  const source = jsonRowSource(
    db,
    rows,
    [
      ['id', 'text'],
      ['tp', 'integer'],
      ['cp', 'integer'],
      ['ce', 'integer'],
      ['lpt', 'bigint'],
      ['ls', 'bigint'],
      ['d', 'double precision'],
    ],
    'v',
  );
  await sql`
    UPDATE stations SET
      telemetry_packets = stations.telemetry_packets + v.tp,
      confirmed_packets = stations.confirmed_packets + v.cp,
      crc_errors = stations.crc_errors + v.ce,
      last_packet_time = CASE WHEN v.lpt IS NOT NULL AND (stations.last_packet_time IS NULL OR v.lpt > stations.last_packet_time)
        THEN v.lpt ELSE stations.last_packet_time END,
      last_seen = CASE WHEN stations.last_seen IS NULL OR v.ls > stations.last_seen THEN v.ls ELSE stations.last_seen END,
      record_distance_km = CASE WHEN v.d IS NOT NULL AND v.d > stations.record_distance_km THEN v.d ELSE stations.record_distance_km END
    FROM ${source}
    WHERE stations.id = v.id`.execute(db);
}

function bandOrNull(autoTune: number | null): Band | null {
  return (BANDS as readonly number[]).includes(autoTune ?? 0) ? (autoTune as Band) : null;
}

/** Ids per statement when reading given stations (well under every driver's parameter limit). */
const IDS_PER_READ = 500;

/**
 * Stations in the map/list shape (`/v1/stations`, the `stations` live event): every station, or
 * only those of `ids` that exist (ordered by id within each read of up to 500 ids).
 */
export async function listStationListItems(
  db: Kysely<Database>,
  ids?: readonly string[],
): Promise<StationListItem[]> {
  if (ids === undefined) return readStationListItems(db);
  const items: StationListItem[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    items.push(...(await readStationListItems(db, ids.slice(i, i + IDS_PER_READ))));
  }
  return items;
}

async function readStationListItems(
  db: Kysely<Database>,
  ids?: readonly string[],
): Promise<StationListItem[]> {
  if (ids?.length === 0) return [];
  let query = db
    .selectFrom('stations')
    .leftJoin('satellites', 'satellites.name', 'stations.satellite')
    .select([
      'stations.name',
      'stations.userId',
      'stations.lat',
      'stations.lng',
      'stations.status',
      'stations.lastSeen',
      'stations.lastPacketTime',
      'stations.version',
      'stations.satellite',
      'satellites.displayName',
      'stations.autoTune',
    ])
    .orderBy('stations.id');
  if (ids) query = query.where('stations.id', 'in', [...ids]);
  const rows = await query.execute();
  return rows.map((r) => ({
    name: r.name,
    userId: r.userId,
    location: [r.lat, r.lng],
    status: r.status === 0 ? 0 : 1,
    lastSeen: r.lastSeen,
    lastPacketTime: r.lastPacketTime,
    version: r.version,
    satellite: r.satellite,
    satDisplayName: r.displayName ?? null,
    autoTune: bandOrNull(r.autoTune),
  }));
}

export interface AutoTuneStation {
  id: string;
  name: string;
  userId: string;
  lat: number;
  lng: number;
  band: Band;
  satellite: string | null;
}

/** Online stations whose owner chose an auto-tune band. */
export async function listAutoTuneStations(db: Kysely<Database>): Promise<AutoTuneStation[]> {
  const rows = await db
    .selectFrom('stations')
    .select(['id', 'name', 'userId', 'lat', 'lng', 'autoTune', 'satellite'])
    .where('status', '=', 1)
    .where('autoTune', 'in', [...BANDS])
    .execute();
  return rows.flatMap((r) => {
    const band = bandOrNull(r.autoTune);
    return band === null
      ? []
      : [
          {
            id: r.id,
            name: r.name,
            userId: r.userId,
            lat: r.lat,
            lng: r.lng,
            band,
            satellite: r.satellite,
          },
        ];
  });
}

/** The whole stored row of a station (owner actions check the owner and state on it). */
export async function findStationRow(
  db: Kysely<Database>,
  id: string,
): Promise<StationRow | undefined> {
  return db.selectFrom('stations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The owner's settings (name, description, antenna, auto-tune...). */
export async function updateStationSettings(
  db: Kysely<Database>,
  id: string,
  patch: StationUpdate,
): Promise<void> {
  await db.updateTable('stations').set(patch).where('id', '=', id).execute();
}

/**
 * Removes a station, its picture rows and its leaderboard aggregates in one transaction (the caller
 * has checked it is offline); false when it was already gone. Packets and receptions stay: they
 * belong to the network.
 */
export async function deleteStationWithPictures(
  db: Kysely<Database>,
  id: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('stations').where('id', '=', id).executeTakeFirst();
    if (result.numDeletedRows === 0n) return false;
    await deleteStationPictures(trx, id);
    await deleteStationLeaderboards(trx, id);
    return true;
  });
}
