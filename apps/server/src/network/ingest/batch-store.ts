// Where a write batch's plan (plan-batch.ts) is committed. PostgreSQL: on the shared pool (the
// database does the work in its own processes). SQLite: on a connection of its own in a worker
// thread (sqlite/thread-store.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { BatchPlan } from './plan-batch';
import {
  kyselyRowWrites,
  kyselySharedRowWrites,
  writeBatch,
  type BatchWrites,
  type BatchWritten,
} from './write-batch';

export interface BatchStore {
  /**
   * Commits one batch's plan. Up to `maxInFlight` writes may be pending at once; they commit in
   * the order they were made, and a write made while an earlier one is pending fails if that one
   * fails (it would otherwise commit receptions joining a packet that was never stored).
   */
  write(plan: BatchPlan): Promise<BatchWritten>;
  readonly maxInFlight: number;
  /** other instances store packets of the same frames: plans are for shared mode (plan-batch.ts) */
  readonly shared: boolean;
  close(): Promise<void>;
}

/** A plan's writes, without its events. */
export function writesOf(plan: BatchPlan): BatchWrites {
  return {
    lifecycle: plan.lifecycle,
    droppedMessages: plan.droppedMessages,
    receptions: plan.receptions.shared
      ? plan.receptions
      : { shared: false, rows: plan.receptions.planned.rows },
  };
}

/** `shared`: other instances store packets of the same frames (write-batch.ts, shared mode). */
export function inProcessStore(db: Kysely<Database>, shared = false): BatchStore {
  return {
    // Concurrent transactions on a pool would commit in any order.
    maxInFlight: 1,
    shared,
    write: (plan) =>
      db
        .transaction()
        .execute((trx) =>
          writeBatch(
            trx,
            writesOf(plan),
            kyselyRowWrites(trx),
            shared ? kyselySharedRowWrites(trx) : null,
          ),
        ),
    close: async () => undefined,
  };
}
