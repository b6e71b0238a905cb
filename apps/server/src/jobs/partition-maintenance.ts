// PostgreSQL: the month partitions of packets and receptions (migration 0016). Once an hour, on the
// elected instance: the partitions of the current month and PARTITION_MONTHS_AHEAD months after it
// are created (with any month missed while no instance ran it), rows that went to the DEFAULT
// partition for want of their month move into it, and with PACKET_RETENTION_MONTHS the months
// before the retention window are dropped whole, packets and receptions alike.
import type { Kysely } from 'kysely';
import {
  PARTITION_MONTHS_AHEAD,
  monthsBetween,
  partitionMonth,
  type PartitionMonth,
} from '../db/partition-months';
import type { Part } from '../part';
import {
  createMonthPartition,
  dropMonthPartition,
  isPartitioned,
  listMonthPartitions,
  type PartitionedTable,
} from '../repositories/partitions';
import { schedulePeriodic } from './periodic';

const RUN_EVERY_MS = 60 * 60 * 1000;
const TABLES: PartitionedTable[] = ['packets', 'receptions'];

export interface PartitionReport {
  /** partitions created, e.g. packets_y2026m12 */
  created: string[];
  /** rows moved out of the DEFAULT partitions */
  moved: number;
  /** partitions dropped by the retention setting */
  dropped: string[];
}

/**
 * One maintenance pass at `now`. `retentionMonths` N keeps the current month and the N months
 * before it (so at least N months of packets); null keeps everything.
 */
export async function maintainPartitions<DB>(
  db: Kysely<DB>,
  now: number,
  retentionMonths: number | null,
): Promise<PartitionReport> {
  const report: PartitionReport = { created: [], moved: 0, dropped: [] };
  const current = partitionMonth(now);
  const last = partitionMonth(now, PARTITION_MONTHS_AHEAD);
  const keepFrom = retentionMonths === null ? null : partitionMonth(now, -retentionMonths);
  for (const table of TABLES) {
    if (!(await isPartitioned(db, table))) continue;
    const existing = await listMonthPartitions(db, table);
    // From the month after the newest partition (months no instance created meanwhile), or from
    // the current month, through the months ahead.
    const newest = existing.at(-1);
    const first: PartitionMonth =
      newest && newest.startMs < current.startMs ? partitionMonth(newest.startMs, 1) : current;
    for (const month of monthsBetween(first, last)) {
      if (keepFrom && month.startMs < keepFrom.startMs) continue;
      const moved = await createMonthPartition(db, table, month);
      if (moved === null) continue;
      report.created.push(`${table}_${month.suffix}`);
      report.moved += moved;
    }
    if (!keepFrom) continue;
    for (const month of existing) {
      if (month.startMs >= keepFrom.startMs) break;
      await dropMonthPartition(db, table, month);
      report.dropped.push(`${table}_${month.suffix}`);
    }
  }
  return report;
}

export const partitionMaintenancePart: Part = {
  name: 'partition-maintenance',
  async start(ctx) {
    const database = ctx.config.database;
    if (database.kind !== 'postgres') return null;
    const log = ctx.log.child({ part: 'partition-maintenance' });
    const retention = database.packetRetentionMonths ?? null;
    return schedulePeriodic(
      {
        name: 'partition maintenance',
        intervalMs: RUN_EVERY_MS,
        firstRunInMs: 0,
        async run() {
          const report = await maintainPartitions(ctx.database.db, Date.now(), retention);
          if (report.created.length > 0 || report.dropped.length > 0 || report.moved > 0)
            log.info(report, 'packet partitions maintained');
        },
      },
      log,
    );
  },
};
