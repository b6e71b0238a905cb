// Where a write batch is committed. PostgreSQL: on the shared pool (the database does the work
// in its own processes). SQLite: on a connection of its own in a worker thread, because SQLite
// works synchronously on the calling thread and at thousands of receptions a second the writes
// would otherwise take most of the event loop that also runs the broker and the HTTP API.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema';
import {
  kyselyRowWrites,
  kyselySharedRowWrites,
  writeBatch,
  type BatchOutcome,
  type WriteOp,
} from './write-batch';

export interface BatchStore {
  /**
   * Commits one batch. Up to `maxInFlight` writes may be pending at once; they commit in the order
   * they were made, and a write made while an earlier one is pending fails if that one fails (it
   * would otherwise commit receptions joining a packet that was never stored).
   */
  write(ops: WriteOp[], droppedMessages: number): Promise<BatchOutcome>;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** `shared`: other instances store packets of the same frames (write-batch.ts, shared mode). */
export function inProcessStore(db: Kysely<Database>, shared = false): BatchStore {
  return {
    // Concurrent transactions on a pool would commit in any order.
    maxInFlight: 1,
    write: (ops, drops) =>
      db
        .transaction()
        .execute((trx) =>
          writeBatch(
            trx,
            ops,
            drops,
            kyselyRowWrites(trx),
            shared ? kyselySharedRowWrites(trx) : null,
          ),
        ),
    close: async () => undefined,
  };
}

/** Messages of the writer thread (sqlite-writer-thread.ts). */
/** `epoch`: a failed batch fails every later one of the same epoch without running it. */
export type WriterRequest = { id: number; epoch: number; ops: WriteOp[]; droppedMessages: number };
export type WriterReply =
  | { id: number; outcome: BatchOutcome }
  | { id: number; error: string }
  | { ready: true }
  | { closed: true };

/** Messages of the checkpointer thread (sqlite-checkpointer-thread.ts). */
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

// Checkpoint at most this often (right after a commit); past CATCH_UP_PAGES in the WAL (4 KiB
// each: 16 MB) the writer finishes a checkpoint between two batches; past WAL_VALVE_PAGES (64 MB:
// a reader keeps old frames) the WAL is forced to start again, waiting for the writer and readers.
const CHECKPOINT_EVERY_MS = 250;
const CATCH_UP_PAGES = 4_000;
const WAL_VALVE_PAGES = 16_000;

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
const WRITER_BOOTSTRAP = bootstrap('./sqlite-writer-thread.ts');
const CHECKPOINTER_BOOTSTRAP = bootstrap('./sqlite-checkpointer-thread.ts');

const CLOSE_TIMEOUT_MS = 5_000;

interface Checkpointer {
  /** a port for one writer thread to report its commits on; null once the thread is gone */
  commitPort(): MessagePort | null;
  close(): Promise<CheckpointerStats | null>;
}

/** The checkpointer thread, or null when it cannot start (the writer then checkpoints itself). */
async function startCheckpointer(file: string, log: Logger): Promise<Checkpointer | null> {
  let alive = true;
  const w = new Worker(CHECKPOINTER_BOOTSTRAP, {
    eval: true,
    workerData: {
      file,
      everyMs: CHECKPOINT_EVERY_MS,
      catchUpPages: CATCH_UP_PAGES,
      valvePages: WAL_VALVE_PAGES,
    },
  });
  let closedWith: ((s: CheckpointerStats | null) => void) | null = null;
  const ready = new Promise<boolean>((resolve) => {
    w.on('message', (reply: CheckpointerReply) => {
      if ('ready' in reply) resolve(true);
      else if ('closed' in reply) closedWith?.(reply.stats);
    });
    w.on('error', (err) => {
      log.error({ err }, 'SQLite checkpointer thread failed; the writer checkpoints itself');
      resolve(false);
    });
    w.on('exit', () => {
      alive = false;
      resolve(false);
      closedWith?.(null);
    });
  });
  if (!(await ready)) {
    await w.terminate();
    return null;
  }
  return {
    commitPort() {
      if (!alive) return null;
      const { port1, port2 } = new MessageChannel();
      w.postMessage({ commits: port2 } satisfies CheckpointerRequest, [port2]);
      return port1;
    },
    async close() {
      if (!alive) return null;
      const stats = new Promise<CheckpointerStats | null>((resolve) => {
        closedWith = resolve;
        setTimeout(() => resolve(null), CLOSE_TIMEOUT_MS).unref();
      });
      w.postMessage({ close: true } satisfies CheckpointerRequest);
      const result = await stats;
      await w.terminate();
      return result;
    },
  };
}

export async function sqliteThreadStore(file: string, log: Logger): Promise<BatchStore> {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<
    number,
    { epoch: number; resolve: (o: BatchOutcome) => void; reject: (e: Error) => void }
  >();
  let closing = false;
  // Raised when a batch fails: what was sent before that was known is refused by the thread,
  // what is sent after runs.
  let epoch = 0;
  const checkpointer = await startCheckpointer(file, log);

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  const spawn = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const commits = checkpointer?.commitPort() ?? null;
      const w = new Worker(WRITER_BOOTSTRAP, {
        eval: true,
        workerData: { file, checkpointer: commits },
        transferList: commits ? [commits] : [],
      });
      w.on('message', (reply: WriterReply) => {
        if ('ready' in reply) {
          resolve(w);
          return;
        }
        if ('closed' in reply) {
          w.emit('closed');
          return;
        }
        const p = pending.get(reply.id);
        pending.delete(reply.id);
        if (!p) return;
        if ('error' in reply) {
          if (p.epoch === epoch) epoch += 1;
          p.reject(new Error(reply.error));
        } else p.resolve(reply.outcome);
      });
      w.on('error', (err) => {
        log.error({ err }, 'SQLite writer thread failed');
        reject(err);
      });
      w.on('exit', (code) => {
        if (worker === w) worker = null;
        failAll(new Error(`SQLite writer thread exited (${code})`));
        if (!closing && code !== 0)
          log.error({ code }, 'SQLite writer thread exited; it is restarted with the next batch');
      });
    });

  try {
    worker = await spawn();
  } catch (err) {
    await checkpointer?.close();
    throw err;
  }
  // One restart at a time, however many writes are waiting for it.
  let respawn: Promise<Worker> | null = null;
  return {
    // One batch commits while the next is already with the thread, waiting: the thread starts it
    // the moment the previous commit ends, without a round trip through the busy main thread.
    maxInFlight: 2,
    async write(ops, droppedMessages) {
      if (!worker) {
        respawn ??= spawn().finally(() => (respawn = null));
        worker = await respawn;
      }
      const id = nextId++;
      const request: WriterRequest = { id, epoch, ops, droppedMessages };
      const result = new Promise<BatchOutcome>((resolve, reject) =>
        pending.set(id, { epoch: request.epoch, resolve, reject }),
      );
      worker.postMessage(request);
      return result;
    },
    async close() {
      closing = true;
      const w = worker;
      worker = null;
      if (w) {
        const closed = new Promise<void>((resolve) => {
          w.once('closed', () => resolve());
          setTimeout(resolve, CLOSE_TIMEOUT_MS).unref();
        });
        w.postMessage({ close: true });
        await closed;
        await w.terminate();
      }
      const stats = await checkpointer?.close();
      if (stats) log.info({ checkpointer: stats }, 'SQLite checkpointer stopped');
    },
  };
}
