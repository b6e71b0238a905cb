// Where a write batch's plan (plan-batch.ts) is committed: on a connection of its own in a worker
// thread (thread-store.ts; sqlite/ and postgres/), or, when that thread cannot start or is turned
// off, on the main thread's connection (`inProcessStore`).
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

/** One batch's writes in one transaction, with the portable row writes (repositories/). */
export function writeInTransaction(
  db: Kysely<Database>,
  batch: BatchWrites,
): Promise<BatchWritten> {
  return db
    .transaction()
    .execute((trx) =>
      writeBatch(
        trx,
        batch,
        kyselyRowWrites(trx),
        batch.receptions.shared ? kyselySharedRowWrites(trx) : null,
      ),
    );
}

/** `shared`: other instances store packets of the same frames (write-batch.ts, shared mode). */
export function inProcessStore(db: Kysely<Database>, shared = false): BatchStore {
  return {
    // Concurrent transactions on a pool would commit in any order.
    maxInFlight: 1,
    shared,
    write: (plan) => writeInTransaction(db, writesOf(plan)),
    close: async () => undefined,
  };
}
