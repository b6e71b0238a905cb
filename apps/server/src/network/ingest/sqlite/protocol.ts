// What the SQLite batch store (thread-store.ts) and its two threads say to each other, and how the
// threads are started. The writer thread gets a batch's writes only (write-batch.ts, BatchWrites:
// the planned rows and the lifecycle writes) and answers what storage alone knows; the batch's
// events stay on the main thread, which planned them (plan-batch.ts).
import type { MessagePort } from 'node:worker_threads';
import { tsWorkerScript } from '../../../lib/ts-worker';
import type { LifecycleOp } from '../plan-batch';
import type { PackedRows } from './packed-rows';

/** Messages of the writer thread (writer-thread.ts). */
/** `epoch`: a failed batch fails every later one of the same epoch without running it. */
export type WriterRequest = {
  id: number;
  epoch: number;
  lifecycle: LifecycleOp[];
  droppedMessages: number;
  /** the planned rows, packed (packed-rows.ts) */
  rows: PackedRows;
};
export type WriterReply =
  /** `lifecycleChanged`: the stations the lifecycle writes changed (write-batch.ts) */
  | { id: number; lifecycleChanged: string[] }
  | { id: number; error: string }
  | { ready: true }
  | { closed: true };

/** Messages of the checkpointer thread (checkpointer-thread.ts). */
export interface CheckpointerStats {
  checkpoints: number;
  /** checkpoints that copied the whole WAL (the writer's next commit starts it again) */
  caughtUp: number;
  /** times the writer was asked to finish a checkpoint between two batches */
  catchUpsAsked: number;
  /** times the WAL was seen to have started again (smaller than at the checkpoint before) */
  walRestarts: number;
  /** RESTART checkpoints because the WAL outgrew the valve size */
  valveRuns: number;
  /** largest WAL seen, pages */
  maxWalPages: number;
  /** slowest checkpoint, ms */
  maxCheckpointMs: number;
}
export type CheckpointerRequest = { close: true } | { stats: true } | { commits: MessagePort };
export type CheckpointerReply =
  { ready: true } | { stats: CheckpointerStats } | { closed: true; stats: CheckpointerStats };

/** Worker scripts (`eval: true`) of the two threads. */
export const WRITER_BOOTSTRAP = tsWorkerScript(new URL('./writer-thread.ts', import.meta.url));
export const CHECKPOINTER_BOOTSTRAP = tsWorkerScript(
  new URL('./checkpointer-thread.ts', import.meta.url),
);

/** How long closing waits for a thread's answer. */
export const CLOSE_TIMEOUT_MS = 5_000;
