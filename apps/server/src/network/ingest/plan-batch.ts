// What one write batch writes and announces, computed from its queued operations on the main
// thread, without I/O: the rows of its receptions (packets, receptions, station numbers, station,
// satellite and daily statistics, leaderboard tallies, counter deltas, the new packets whose
// numbers become telemetry samples, SatNOGS outbox keys), the station lifecycle writes in arrival
// order, and the events to publish once it commits. The store (batch-store.ts) only writes the
// plan (write-batch.ts).
//
// Two steps depend on what storage holds, and are pure steps of their own that the store runs
// with what its writes answered: the lifecycle writes' effects (`lifecycleEffects`: a welcome of a
// user's first station, a station that was stored as offline, the stations an offline sweep found
// online), and in shared mode (instances sharing ingest, shared-merge.ts) the receptions'
// rows, which count only the packets and receptions the batch actually inserted
// (`planReceptions` with the inserted keys).
import type { OfflineCause, SatPos } from '@tinygs/contracts';
import type { NewPacket, NewReception } from '../../db/schema';
import type { LeaderboardTallies } from '../../repositories/leaderboards';
import type { DailyStationStat, SatelliteReceptionStats } from '../../repositories/packets';
import type { OutboxKey } from '../../repositories/satnogs-outbox';
import type { StatusEventRow } from '../../repositories/station-health';
import type { StationReceptionStats, WelcomeWrite } from '../../repositories/stations';
import { LeaderboardTally } from './leaderboard-tally';

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
  /** queue it for SatNOGS DB (repositories/satnogs-outbox.ts) */
  forwardToSatnogs?: true;
}

/**
 * Whether a station came online: known to this process (its broker saw every connection), or
 * null when only storage knows (instances sharing an external broker each see part of the
 * messages): the write then counts what it actually changed, so the online counter stays exact.
 */
export type CameOnline = boolean | null;

export type LifecycleOp =
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
  | { kind: 'satellite'; id: string; satellite: string };

export type WriteOp = LifecycleOp | { kind: 'reception'; write: ReceptionWrite };

export interface StoredPacket {
  packetId: string;
  satelliteName: string;
  satDisplayName: string;
  satPos: SatPos | null;
  crcError: boolean;
  stations: string[];
}

/** The rows a batch's receptions write; plain data (it is copied to the writer thread). */
export interface ReceptionRows {
  /** packets to insert (none in shared mode: inserted if absent before the plan) */
  packets: NewPacket[];
  /** receptions to insert (none in shared mode, as packets) */
  receptions: NewReception[];
  /** receptions added to packets stored before this batch (or, shared mode, by it) */
  stationNumbers: { id: string; add: number }[];
  stationStats: StationReceptionStats[];
  satelliteStats: SatelliteReceptionStats[];
  dailyStats: DailyStationStat[];
  /** receptions to queue for SatNOGS DB (the store leaves out opted-out stations) */
  satnogs: (OutboxKey & { serverTime: number })[];
  leaderboards: LeaderboardTallies;
  /**
   * The new packets whose decoded numbers become telemetry series (telemetry/samples.ts). The
   * store takes the samples out of them, with each satellite's field cap: parsing them here would
   * cost the main thread, and copying the samples to the writer thread more than the rows (which
   * are the same objects as in `packets`, copied once).
   */
  samplesOf: NewPacket[];
  counters: { packets: number; receptions: number; crcErrors: number };
}

/** What the batch's receptions announce once it commits. */
export interface ReceptionEvents {
  newPackets: StoredPacket[];
  /** stations with a stored reception */
  changedStations: string[];
}

export interface PlannedReceptions {
  rows: ReceptionRows;
  events: ReceptionEvents;
  /** receptions stored */
  stored: number;
  /** receptions not stored because their station's copy already was (shared mode) */
  duplicates: number;
}

/** Shared mode: the rows inserted if absent, in key order, before the receptions are planned. */
export interface SharedInserts {
  packets: NewPacket[];
  receptions: NewReception[];
  /** the batch's receptions in arrival order, planned again with what was inserted */
  queued: ReceptionWrite[];
}

/** What shared mode's inserts answered: packet ids, and `receptionKey`s. */
export interface InsertedKeys {
  packets: ReadonlySet<string>;
  receptions: ReadonlySet<string>;
}

export interface BatchPlan {
  /** station lifecycle writes, in arrival order */
  lifecycle: LifecycleOp[];
  /** messages dropped since the last batch, for their counter */
  droppedMessages: number;
  receptions:
    { shared: false; planned: PlannedReceptions } | { shared: true; inserts: SharedInserts };
}

export const receptionKey = (r: Pick<NewReception, 'packetId' | 'stationId'>): string =>
  `${r.packetId}\n${r.stationId}`;

const byKey =
  <T>(key: (v: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

const DAY_MS = 86_400_000;

/**
 * The plan of one batch. `shared`: other instances store packets of the same frames, so packets
 * and receptions are inserted if absent and the receptions are planned after that
 * (`planReceptions` with the inserted keys).
 */
export function planBatch(
  ops: readonly WriteOp[],
  droppedMessages: number,
  shared = false,
): BatchPlan {
  const lifecycle: LifecycleOp[] = [];
  const queued: ReceptionWrite[] = [];
  for (const op of ops) {
    if (op.kind === 'reception') queued.push(op.write);
    else lifecycle.push(op);
  }
  return {
    lifecycle,
    droppedMessages,
    receptions: shared
      ? { shared: true, inserts: sharedInserts(queued) }
      : { shared: false, planned: planReceptions(queued, null) },
  };
}

/**
 * Shared mode: the packets and receptions to insert if absent, in key order (two instances'
 * batches then take the same rows' locks in the same order). Packets go in with no stations:
 * every reception inserted is added to its packet's number.
 */
export function sharedInserts(queued: readonly ReceptionWrite[]): SharedInserts {
  const candidates = new Map<string, NewPacket>();
  for (const r of queued) {
    if (r.newPacket && !candidates.has(r.packetId))
      candidates.set(r.packetId, { ...r.newPacket, stationNumber: 0 });
  }
  return {
    packets: [...candidates.values()].sort(byKey((p) => p.id)),
    receptions: queued.map((r) => r.reception).sort(byKey(receptionKey)),
    queued: [...queued],
  };
}

/**
 * The rows and events of a batch's receptions, in arrival order. `inserted` (shared mode): what
 * the inserts if absent stored; only those receptions count (a copy queued twice in one batch
 * once), and a packet is new when this batch inserted it.
 */
export function planReceptions(
  queued: readonly ReceptionWrite[],
  inserted: InsertedKeys | null,
): PlannedReceptions {
  let receptions: readonly ReceptionWrite[] = queued;
  if (inserted) {
    const taken = new Set<string>();
    receptions = queued.filter((r) => {
      const key = receptionKey(r.reception);
      if (!inserted.receptions.has(key) || taken.has(key)) return false;
      taken.add(key);
      return true;
    });
  }
  const changedStations = new Set<string>();
  const created = new Map<string, { row: NewPacket | null; stored: StoredPacket }>();
  const joined = new Map<string, number>();
  const stationStats = new Map<string, StationReceptionStats>();
  const satelliteStats = new Map<string, SatelliteReceptionStats>();
  const daily = new Map<string, DailyStationStat>();
  const leaderboards = new LeaderboardTally();
  let newPackets = 0;
  let crcErrors = 0;
  // UTC days by day number: a batch spans one or two
  const dayNames = new Map<number, string>();
  const dayOf = (ms: number): string => {
    const n = Math.floor(ms / DAY_MS);
    let name = dayNames.get(n);
    if (name === undefined) {
      name = new Date(ms).toISOString().slice(0, 10);
      dayNames.set(n, name);
    }
    return name;
  };

  for (const r of receptions) {
    const at = r.reception.serverTime;
    const stationId = r.reception.stationId;
    changedStations.add(stationId);
    // The reception that created its packet: the one carrying the row, or in shared mode the
    // first one here of a packet this batch inserted.
    const creates = inserted
      ? inserted.packets.has(r.packetId) && !created.has(r.packetId)
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
    if (own?.row && !inserted) own.row.stationNumber = (own.row.stationNumber ?? 0) + 1;
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
    const day = dayOf(at);
    leaderboards.add(stationId, r.satelliteName, day, at, distance, r.decoded, creates);

    let sat = satelliteStats.get(r.satelliteName);
    if (!sat) {
      sat = { name: r.satelliteName, frames: 0, confirmedPackets: 0, lastPacketTime: at };
      satelliteStats.set(r.satelliteName, sat);
    }
    sat.frames += 1;
    if (creates) sat.confirmedPackets += 1;
    sat.lastPacketTime = Math.max(sat.lastPacketTime, at);

    const key = `${stationId}\n${day}\n${r.satelliteName}`;
    const d = daily.get(key);
    if (d) d.frames += 1;
    else daily.set(key, { stationId, day, satellite: r.satelliteName, frames: 1 });
  }

  const numbers = [...joined].map(([id, add]) => ({ id, add }));
  const stations = [...stationStats.values()];
  const satellites = [...satelliteStats.values()];
  const days = [...daily.values()];
  if (inserted) {
    // Rows other instances' batches update too, in one order.
    numbers.sort(byKey((n) => n.id));
    stations.sort(byKey((st) => st.id));
    satellites.sort(byKey((st) => st.name));
    days.sort(byKey((d) => `${d.stationId}\n${d.day}\n${d.satellite}`));
  }
  const createdRows = [...created.values()].flatMap((c) => (c.row ? [c.row] : []));
  return {
    rows: {
      packets: inserted ? [] : createdRows,
      receptions: inserted ? [] : receptions.map((r) => r.reception),
      stationNumbers: numbers,
      stationStats: stations,
      satelliteStats: satellites,
      dailyStats: days,
      // Frames for SatNOGS DB leave with the batch that stores them, or not at all (satnogs/).
      satnogs: forSatnogs(receptions),
      leaderboards: leaderboards.rows(inserted !== null),
      samplesOf: createdRows,
      counters: { packets: newPackets, receptions: receptions.length, crcErrors },
    },
    events: {
      newPackets: [...created.values()].map((c) => c.stored),
      changedStations: [...changedStations],
    },
    stored: receptions.length,
    duplicates: queued.length - receptions.length,
  };
}

function forSatnogs(receptions: readonly ReceptionWrite[]): ReceptionRows['satnogs'] {
  const keys: ReceptionRows['satnogs'] = [];
  for (const { forwardToSatnogs, reception: r } of receptions)
    if (forwardToSatnogs)
      keys.push({ packetId: r.packetId, stationId: r.stationId, serverTime: r.serverTime });
  return keys;
}

/** What a lifecycle write found in storage, one per `LifecycleOp` in the same order. */
export type LifecycleResult =
  | { kind: 'welcome'; firstOfUser: boolean; cameOnline: boolean }
  /** `flipped`: it was stored as offline (asked only when `cameOnline` is null) */
  | { kind: 'seen'; flipped: boolean }
  /** the stations that were online (and, with `silentBefore`, silent) */
  | { kind: 'offline'; gone: string[] }
  | { kind: 'satellite' };

export interface LifecycleEffects {
  /** counter deltas */
  members: number;
  online: number;
  /** every change of state, with its cause, for the station's health timeline */
  transitions: StatusEventRow[];
  changedStations: string[];
}

/** The counters, health timeline and changed stations of the lifecycle writes' results. */
export function lifecycleEffects(
  ops: readonly LifecycleOp[],
  results: readonly LifecycleResult[],
): LifecycleEffects {
  let members = 0;
  let online = 0;
  const transitions: StatusEventRow[] = [];
  const changed = new Set<string>();
  ops.forEach((op, i) => {
    const result = results[i];
    if (op.kind === 'welcome' && result?.kind === 'welcome') {
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
    } else if (op.kind === 'seen' && result?.kind === 'seen') {
      if (op.cameOnline ?? result.flipped) {
        online += 1;
        changed.add(op.id);
        transitions.push({ stationId: op.id, at: op.at, online: true, cause: 'activity' });
      }
    } else if (op.kind === 'offline' && result?.kind === 'offline') {
      online -= result.gone.length;
      for (const id of result.gone) {
        changed.add(id);
        transitions.push({ stationId: id, at: op.at, online: false, cause: op.cause });
      }
    } else if (op.kind === 'satellite') {
      changed.add(op.id);
    } else {
      throw new Error(`lifecycle result ${i} does not answer a ${op.kind} write`);
    }
  });
  return { members, online, transitions, changedStations: [...changed] };
}
