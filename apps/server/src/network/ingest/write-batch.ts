// One write batch: station lifecycle changes in arrival order, then every queued reception with
// the packets it creates or joins and all counters that move with them. Runs in one transaction.
import type { OfflineCause, SatPos } from '@tinygs/contracts';
import type { Kysely } from 'kysely';
import type { Database, NewPacket, NewReception } from '../../db/schema';
import { addToCounters } from '../../repositories/counters';
import {
  addDailyStats,
  addSatelliteStats,
  addToStationNumbers,
  insertPackets,
  insertPacketsIfAbsent,
  insertReceptions,
  insertReceptionsIfAbsent,
  type DailyStationStat,
  type SatelliteReceptionStats,
} from '../../repositories/packets';
import { insertStatusEvents, type StatusEventRow } from '../../repositories/station-health';
import {
  addStationReceptionStats,
  setStationSatellite,
  writeOffline,
  writeSeen,
  writeWelcome,
  type StationReceptionStats,
  type WelcomeWrite,
} from '../../repositories/stations';

export interface ReceptionWrite {
  packetId: string;
  /** the packet row when this reception is the first of its frame */
  newPacket: NewPacket | null;
  reception: NewReception;
  satelliteName: string;
  satDisplayName: string;
  /** the packet's satellite position, for the live event */
  satPos: SatPos | null;
  crcError: boolean;
  /** the frame decoded: a confirmed packet for the station */
  decoded: boolean;
  /** the ingest journal's entry of this reception, settled when its batch commits */
  receipt?: string;
}

/**
 * Whether a station came online: known to this process (its broker saw every connection), or
 * null when only storage knows (instances sharing an external broker each see part of the
 * messages): the write then counts what it actually changed, so the online counter stays exact.
 */
export type CameOnline = boolean | null;

export type WriteOp =
  | { kind: 'welcome'; write: WelcomeWrite; cameOnline: CameOnline }
  | {
      kind: 'seen';
      id: string;
      at: number;
      wifiRssi?: number;
      radioStatus?: number;
      cameOnline: CameOnline;
    }
  /** `silentBefore`: only those still not seen since then (a sweep of stored last-seen times) */
  | { kind: 'offline'; ids: string[]; silentBefore?: number; at: number; cause: OfflineCause }
  | { kind: 'satellite'; id: string; satellite: string }
  | { kind: 'reception'; write: ReceptionWrite };

export interface StoredPacket {
  packetId: string;
  satelliteName: string;
  satDisplayName: string;
  satPos: SatPos | null;
  crcError: boolean;
  stations: string[];
}

/** The row writes of a batch that take most of its time; SQLite has prepared versions (sqlite-rows.ts). */
export interface RowWrites {
  insertPackets(rows: readonly NewPacket[]): Promise<void> | void;
  insertReceptions(rows: readonly NewReception[]): Promise<void> | void;
  addToStationNumbers(items: readonly { id: string; add: number }[]): Promise<void> | void;
  addStationReceptionStats(stats: readonly StationReceptionStats[]): Promise<void> | void;
  addDailyStats(stats: readonly DailyStationStat[]): Promise<void> | void;
}

/** The portable row writes (repositories), on the batch's transaction. */
export function kyselyRowWrites(trx: Kysely<Database>): RowWrites {
  return {
    insertPackets: (rows) => insertPackets(trx, rows),
    insertReceptions: (rows) => insertReceptions(trx, rows),
    addToStationNumbers: (items) => addToStationNumbers(trx, items),
    addStationReceptionStats: (stats) => addStationReceptionStats(trx, stats),
    addDailyStats: (stats) => addDailyStats(trx, stats),
  };
}

export interface BatchOutcome {
  newPackets: StoredPacket[];
  /** receptions stored */
  receptions: number;
  /** receptions not stored because their station's copy already was (shared mode) */
  duplicates: number;
  changedStations: Set<string>;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

async function writeStationOps(
  trx: Kysely<Database>,
  ops: readonly WriteOp[],
  changed: Set<string>,
) {
  let members = 0;
  let online = 0;
  // Every change of state, with its cause, for the station's health timeline.
  const transitions: StatusEventRow[] = [];
  for (const op of ops) {
    if (op.kind === 'welcome') {
      const result = await writeWelcome(trx, op.write);
      if (result.firstOfUser) members += 1;
      if (op.cameOnline ?? result.cameOnline) {
        online += 1;
        transitions.push({
          stationId: op.write.id,
          at: op.write.at,
          online: true,
          cause: 'connect',
        });
      }
      changed.add(op.write.id);
    } else if (op.kind === 'seen') {
      const flipped = await writeSeen(trx, op, op.cameOnline === null);
      if (op.cameOnline ?? flipped) {
        online += 1;
        changed.add(op.id);
        transitions.push({ stationId: op.id, at: op.at, online: true, cause: 'activity' });
      }
    } else if (op.kind === 'offline') {
      const gone = await writeOffline(trx, op.ids, op.silentBefore);
      online -= gone.length;
      for (const id of gone) {
        changed.add(id);
        transitions.push({ stationId: id, at: op.at, online: false, cause: op.cause });
      }
    } else if (op.kind === 'satellite') {
      await setStationSatellite(trx, op.id, op.satellite);
      changed.add(op.id);
    }
  }
  await insertStatusEvents(trx, transitions);
  return { members, online };
}

/**
 * Shared mode (instances sharing ingest, shared-merge.ts): a reception's packet may be created by
 * another instance's batch as well, and a station's copy may arrive twice (redelivered by the
 * broker). Packets are inserted if absent and receptions if absent; everything counted below
 * counts what was actually inserted, so counters stay exact whichever batch commits first.
 */
export interface SharedRowWrites {
  /** the ids of the packets this call inserted */
  insertPacketsIfAbsent(rows: readonly NewPacket[]): Promise<Set<string>>;
  /** `packetId\nstationId` of the receptions this call inserted */
  insertReceptionsIfAbsent(rows: readonly NewReception[]): Promise<Set<string>>;
}

export function kyselySharedRowWrites(trx: Kysely<Database>): SharedRowWrites {
  return {
    insertPacketsIfAbsent: (rows) => insertPacketsIfAbsent(trx, rows),
    insertReceptionsIfAbsent: (rows) => insertReceptionsIfAbsent(trx, rows),
  };
}

const receptionKey = (r: NewReception) => `${r.packetId}\n${r.stationId}`;
const byKey =
  <T>(key: (v: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * Shared mode, before anything is counted: stores the batch's packets and receptions that are not
 * stored yet, in key order (two instances' batches then take the same rows' locks in the same
 * order). Returns the receptions inserted, in batch order, and the packets this batch created.
 */
async function insertShared(
  receptions: readonly ReceptionWrite[],
  shared: SharedRowWrites,
): Promise<{ kept: ReceptionWrite[]; createdIds: Set<string> }> {
  const candidates = new Map<string, NewPacket>();
  for (const r of receptions) {
    if (r.newPacket && !candidates.has(r.packetId))
      candidates.set(r.packetId, { ...r.newPacket, stationNumber: 0 });
  }
  const createdIds = await shared.insertPacketsIfAbsent(
    [...candidates.values()].sort(byKey((p) => p.id)),
  );
  const inserted = await shared.insertReceptionsIfAbsent(
    receptions.map((r) => r.reception).sort(byKey(receptionKey)),
  );
  // One write per inserted key (a copy queued twice in one batch is inserted once).
  const kept = receptions.filter((r) => inserted.delete(receptionKey(r.reception)));
  return { kept, createdIds };
}

export async function writeBatch(
  trx: Kysely<Database>,
  ops: readonly WriteOp[],
  droppedMessages: number,
  rows: RowWrites = kyselyRowWrites(trx),
  shared: SharedRowWrites | null = null,
): Promise<BatchOutcome> {
  const changedStations = new Set<string>();
  const { members, online } = await writeStationOps(trx, ops, changedStations);

  const queued = ops.flatMap((op) => (op.kind === 'reception' ? [op.write] : []));
  const { kept: receptions, createdIds } = shared
    ? await insertShared(queued, shared)
    : { kept: queued, createdIds: null };
  const created = new Map<string, { row: NewPacket | null; stored: StoredPacket }>();
  const joined = new Map<string, number>();
  const stationStats = new Map<string, StationReceptionStats>();
  const satelliteStats = new Map<string, SatelliteReceptionStats>();
  const daily = new Map<string, DailyStationStat>();
  let newPackets = 0;
  let crcErrors = 0;

  for (const r of receptions) {
    const at = r.reception.serverTime;
    const stationId = r.reception.stationId;
    changedStations.add(stationId);
    // The reception that created its packet: the one carrying the row, or in shared mode the
    // first one here of a packet this batch inserted.
    const creates = createdIds
      ? createdIds.has(r.packetId) && !created.has(r.packetId)
      : r.newPacket !== null;
    if (creates) {
      created.set(r.packetId, {
        row: r.newPacket && { ...r.newPacket, stationNumber: 0 },
        stored: {
          packetId: r.packetId,
          satelliteName: r.satelliteName,
          satDisplayName: r.satDisplayName,
          satPos: r.satPos,
          crcError: r.crcError,
          stations: [],
        },
      });
      if (!r.crcError) newPackets += 1;
    }
    const own = created.get(r.packetId);
    if (own) own.stored.stations.push(stationId);
    // Shared mode inserted its packets with no stations: every reception is added below.
    if (own?.row && !shared) own.row.stationNumber = (own.row.stationNumber ?? 0) + 1;
    else joined.set(r.packetId, (joined.get(r.packetId) ?? 0) + 1);

    let s = stationStats.get(stationId);
    if (!s) {
      s = {
        id: stationId,
        telemetryPackets: 0,
        confirmedPackets: 0,
        crcErrors: 0,
        lastPacketTime: null,
        lastSeen: at,
        maxDistanceKm: null,
      };
      stationStats.set(stationId, s);
    }
    s.lastSeen = Math.max(s.lastSeen, at);
    if (r.crcError) {
      crcErrors += 1;
      s.crcErrors += 1;
      continue;
    }
    s.telemetryPackets += 1;
    if (r.decoded) s.confirmedPackets += 1;
    s.lastPacketTime = Math.max(s.lastPacketTime ?? 0, at);
    const distance = r.reception.distance;
    if (typeof distance === 'number' && (s.maxDistanceKm === null || distance > s.maxDistanceKm))
      s.maxDistanceKm = distance;

    let sat = satelliteStats.get(r.satelliteName);
    if (!sat) {
      sat = { name: r.satelliteName, frames: 0, confirmedPackets: 0, lastPacketTime: at };
      satelliteStats.set(r.satelliteName, sat);
    }
    sat.frames += 1;
    if (creates) sat.confirmedPackets += 1;
    sat.lastPacketTime = Math.max(sat.lastPacketTime, at);

    const day = utcDay(at);
    const key = `${stationId}\n${day}\n${r.satelliteName}`;
    const d = daily.get(key);
    if (d) d.frames += 1;
    else daily.set(key, { stationId, day, satellite: r.satelliteName, frames: 1 });
  }

  if (!shared) {
    await rows.insertPackets([...created.values()].flatMap((c) => (c.row ? [c.row] : [])));
    await rows.insertReceptions(receptions.map((r) => r.reception));
  }
  const numbers = [...joined].map(([id, add]) => ({ id, add }));
  const stations = [...stationStats.values()];
  const satellites = [...satelliteStats.values()];
  const days = [...daily.values()];
  if (shared) {
    // Rows other instances' batches update too, in one order.
    numbers.sort(byKey((n) => n.id));
    stations.sort(byKey((st) => st.id));
    satellites.sort(byKey((st) => st.name));
    days.sort(byKey((d) => `${d.stationId}\n${d.day}\n${d.satellite}`));
  }
  await rows.addToStationNumbers(numbers);
  await rows.addStationReceptionStats(stations);
  await addSatelliteStats(trx, satellites);
  await rows.addDailyStats(days);
  await addToCounters(trx, {
    members,
    stations: online,
    packets: newPackets,
    receptions: receptions.length,
    crcErrors,
    droppedMessages,
  });

  return {
    newPackets: [...created.values()].map((c) => c.stored),
    receptions: receptions.length,
    duplicates: queued.length - receptions.length,
    changedStations,
  };
}
