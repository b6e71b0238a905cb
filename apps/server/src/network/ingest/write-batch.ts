// Writes one batch's plan (plan-batch.ts) in one transaction: the station lifecycle writes in
// arrival order, then the rows of its receptions and every counter that moves with them. Nothing
// is computed here but what depends on stored state, through the planner's pure steps.
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
import { addLeaderboardTallies, type LeaderboardTallies } from '../../repositories/leaderboards';
import { insertStatusEvents } from '../../repositories/station-health';
import { queueForSatnogs } from '../../repositories/satnogs-outbox';
import { storeTelemetrySamples, type TelemetryWrites } from '../../repositories/telemetry';
import { newPacketSamples } from '../../telemetry/samples';
import {
  addStationReceptionStats,
  setStationSatellite,
  writeOffline,
  writeSeen,
  writeWelcome,
  type StationReceptionStats,
} from '../../repositories/stations';
import {
  lifecycleEffects,
  planReceptions,
  type LifecycleEffects,
  type LifecycleOp,
  type LifecycleResult,
  type PlannedReceptions,
  type ReceptionRows,
  type SharedInserts,
} from './plan-batch';

/** The row writes of a batch that take most of its time; SQLite has prepared versions (repositories/sqlite/ingest-rows.ts). */
export interface RowWrites {
  insertPackets(rows: readonly NewPacket[]): Promise<void> | void;
  insertReceptions(rows: readonly NewReception[]): Promise<void> | void;
  addToStationNumbers(items: readonly { id: string; add: number }[]): Promise<void> | void;
  addStationReceptionStats(stats: readonly StationReceptionStats[]): Promise<void> | void;
  addDailyStats(stats: readonly DailyStationStat[]): Promise<void> | void;
  /** the telemetry series' writes; by default one statement each through the transaction */
  telemetry?: TelemetryWrites;
  /** by default one statement per satellite through the transaction */
  addSatelliteStats?(stats: readonly SatelliteReceptionStats[]): Promise<void> | void;
  addLeaderboardTallies(tallies: LeaderboardTallies): Promise<void> | void;
}

/** The portable row writes (repositories), on the batch's transaction. */
export function kyselyRowWrites(trx: Kysely<Database>): RowWrites {
  return {
    insertPackets: (rows) => insertPackets(trx, rows),
    insertReceptions: (rows) => insertReceptions(trx, rows),
    addToStationNumbers: (items) => addToStationNumbers(trx, items),
    addStationReceptionStats: (stats) => addStationReceptionStats(trx, stats),
    addDailyStats: (stats) => addDailyStats(trx, stats),
    addLeaderboardTallies: (tallies) => addLeaderboardTallies(trx, tallies),
  };
}

/**
 * Shared mode (instances sharing ingest, shared-merge.ts): a reception's packet may be created by
 * another instance's batch as well, and a station's copy may arrive twice (redelivered by the
 * broker). Packets are inserted if absent and receptions if absent, before anything is counted;
 * the receptions are then planned with what was actually inserted, so counters stay exact
 * whichever batch commits first.
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

/** What a store writes of a plan: everything but its events (all a writer thread gets). */
export interface BatchWrites {
  lifecycle: readonly LifecycleOp[];
  droppedMessages: number;
  /** the planned rows, or in shared mode the inserts they are planned after */
  receptions: { shared: false; rows: ReceptionRows } | { shared: true; inserts: SharedInserts };
}

/** What a committed batch found in storage, beyond its plan (plain data: a writer thread sends it). */
export interface BatchWritten {
  /** stations the lifecycle writes changed (lifecycleEffects) */
  lifecycleChanged: string[];
  /** shared mode: what the receptions, planned with what the batch inserted, store and announce */
  receptions?: Omit<PlannedReceptions, 'rows'>;
}

async function writeLifecycle(
  trx: Kysely<Database>,
  ops: readonly LifecycleOp[],
): Promise<LifecycleEffects> {
  const results: LifecycleResult[] = [];
  for (const op of ops) {
    if (op.kind === 'welcome') {
      const { firstOfUser, cameOnline } = await writeWelcome(trx, op.write);
      results.push({ kind: 'welcome', firstOfUser, cameOnline });
    } else if (op.kind === 'seen') {
      results.push({ kind: 'seen', flipped: await writeSeen(trx, op, op.cameOnline === null) });
    } else if (op.kind === 'offline') {
      results.push({ kind: 'offline', gone: await writeOffline(trx, op.ids, op.silentBefore) });
    } else {
      await setStationSatellite(trx, op.id, op.satellite);
      results.push({ kind: 'satellite' });
    }
  }
  const effects = lifecycleEffects(ops, results);
  await insertStatusEvents(trx, effects.transitions);
  return effects;
}

export async function writeBatch(
  trx: Kysely<Database>,
  batch: BatchWrites,
  rows: RowWrites = kyselyRowWrites(trx),
  shared: SharedRowWrites | null = null,
): Promise<BatchWritten> {
  const lifecycle = await writeLifecycle(trx, batch.lifecycle);
  let planned: PlannedReceptions | undefined;
  let r: ReceptionRows;
  if (batch.receptions.shared) {
    if (!shared) throw new Error('a shared batch needs the shared row writes');
    const { inserts } = batch.receptions;
    planned = planReceptions(inserts.queued, {
      packets: await shared.insertPacketsIfAbsent(inserts.packets),
      receptions: await shared.insertReceptionsIfAbsent(inserts.receptions),
    });
    r = planned.rows;
  } else r = batch.receptions.rows;

  await rows.insertPackets(r.packets);
  await rows.insertReceptions(r.receptions);
  await rows.addToStationNumbers(r.stationNumbers);
  await rows.addStationReceptionStats(r.stationStats);
  await (rows.addSatelliteStats
    ? rows.addSatelliteStats(r.satelliteStats)
    : addSatelliteStats(trx, r.satelliteStats));
  await rows.addDailyStats(r.dailyStats);
  await queueForSatnogs(trx, r.satnogs);
  await rows.addLeaderboardTallies(r.leaderboards);
  await addToCounters(trx, {
    members: lifecycle.members,
    stations: lifecycle.online,
    packets: r.counters.packets,
    receptions: r.counters.receptions,
    crcErrors: r.counters.crcErrors,
    droppedMessages: batch.droppedMessages,
  });
  // The new packets' numbers as telemetry series (telemetry/samples.ts).
  await storeTelemetrySamples(trx, newPacketSamples(r.samplesOf), rows.telemetry);
  return {
    lifecycleChanged: lifecycle.changedStations,
    ...(planned
      ? {
          receptions: {
            events: planned.events,
            stored: planned.stored,
            duplicates: planned.duplicates,
          },
        }
      : {}),
  };
}
