// What the SQLite batch store's checkpointer thread (checkpointer-thread.ts) and the main thread
// say to each other, and how the store's two threads are started (the writer thread's messages:
// ../writer-protocol.ts).
import type { MessagePort } from 'node:worker_threads';
import { tsWorkerScript } from '../../../lib/ts-worker';

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

export { CLOSE_TIMEOUT_MS } from '../writer-protocol';
