// What a batch store on a worker thread (thread-store.ts) and its writer thread (writer-thread.ts)
// say to each other. The thread gets a batch's writes only (write-batch.ts, BatchWrites: the
// lifecycle writes and the planned rows, packed (packed-rows.ts), or in shared mode the inserts the
// rows are planned after) and answers what storage alone knows; the batch's events stay on the
// main thread, which planned them (plan-batch.ts).
import type { LifecycleOp, SharedInserts } from './plan-batch';
import type { PackedRows } from './packed-rows';
import type { BatchWritten } from './write-batch';

/** `epoch`: a failed batch fails every later one of the same epoch without running it. */
export type WriterRequest = {
  id: number;
  epoch: number;
  lifecycle: LifecycleOp[];
  droppedMessages: number;
  receptions: { shared: false; rows: PackedRows } | { shared: true; inserts: SharedInserts };
};
export type WriterReply =
  | { id: number; written: BatchWritten }
  | { id: number; error: string }
  | { ready: true }
  | { closed: true };

/** How long closing waits for a thread's answer. */
export const CLOSE_TIMEOUT_MS = 5_000;
