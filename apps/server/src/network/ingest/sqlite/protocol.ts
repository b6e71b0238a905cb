// What the SQLite batch store (thread-store.ts) and its two threads say to each other, and how the
// threads are started. The writer thread gets a batch's writes only (write-batch.ts, BatchWrites:
// the planned rows and the lifecycle writes) and answers what storage alone knows; the batch's
// events stay on the main thread, which planned them (plan-batch.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import type { LifecycleOp, ReceptionRows } from '../plan-batch';

/** Messages of the writer thread (writer-thread.ts). */
/** `epoch`: a failed batch fails every later one of the same epoch without running it. */
export type WriterRequest = {
  id: number;
  epoch: number;
  lifecycle: LifecycleOp[];
  droppedMessages: number;
  rows: ReceptionRows;
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

// The threads run TypeScript source like the rest of the server: a two-line script loads tsx's
// API and imports the thread module through it (works under tsx and under the test runner alike).
function tsxEsmApi(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = (
    JSON.parse(readFileSync(packageJson, 'utf8')) as {
      exports: Record<string, { import: { default: string } }>;
    }
  ).exports;
  const entry = exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx has no ESM API entry');
  return pathToFileURL(join(dirname(packageJson), entry)).href;
}
const TSX_API = tsxEsmApi();
function bootstrap(module: string): string {
  const entry = JSON.stringify(new URL(module, import.meta.url).href);
  return `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${entry}, ${entry}));`;
}
/** Worker scripts (`eval: true`) of the two threads. */
export const WRITER_BOOTSTRAP = bootstrap('./writer-thread.ts');
export const CHECKPOINTER_BOOTSTRAP = bootstrap('./checkpointer-thread.ts');

/** How long closing waits for a thread's answer. */
export const CLOSE_TIMEOUT_MS = 5_000;
