// Where a write batch is committed. PostgreSQL: on the shared pool (the database does the work
// in its own processes). SQLite: on a connection of its own in a worker thread, because SQLite
// works synchronously on the calling thread and at thousands of receptions a second the writes
// would otherwise take most of the event loop that also runs the broker and the HTTP API.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema';
import { writeBatch, type BatchOutcome, type WriteOp } from './write-batch';

export interface BatchStore {
  write(ops: WriteOp[], droppedMessages: number): Promise<BatchOutcome>;
  close(): Promise<void>;
}

export function inProcessStore(db: Kysely<Database>): BatchStore {
  return {
    write: (ops, drops) => db.transaction().execute((trx) => writeBatch(trx, ops, drops)),
    close: async () => undefined,
  };
}

/** Messages of the writer thread (sqlite-writer-thread.ts). */
export type WriterRequest = { id: number; ops: WriteOp[]; droppedMessages: number };
export type WriterReply =
  | { id: number; outcome: BatchOutcome }
  | { id: number; error: string }
  | { ready: true }
  | { closed: true };

// The thread runs TypeScript source like the rest of the server: a two-line script loads tsx's
// API and imports the thread module through it (works under tsx and under the test runner alike).
const WORKER_ENTRY = new URL('./sqlite-writer-thread.ts', import.meta.url).href;
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
const WORKER_BOOTSTRAP = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_ENTRY)}, ${JSON.stringify(WORKER_ENTRY)}));`;

const CLOSE_TIMEOUT_MS = 5_000;

export async function sqliteThreadStore(file: string, log: Logger): Promise<BatchStore> {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (o: BatchOutcome) => void; reject: (e: Error) => void }
  >();
  let closing = false;

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  const spawn = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const w = new Worker(WORKER_BOOTSTRAP, { eval: true, workerData: { file } });
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
        if ('error' in reply) p.reject(new Error(reply.error));
        else p.resolve(reply.outcome);
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

  worker = await spawn();
  return {
    async write(ops, droppedMessages) {
      worker ??= await spawn();
      const id = nextId++;
      const result = new Promise<BatchOutcome>((resolve, reject) =>
        pending.set(id, { resolve, reject }),
      );
      worker.postMessage({ id, ops, droppedMessages } satisfies WriterRequest);
      return result;
    },
    async close() {
      closing = true;
      const w = worker;
      worker = null;
      if (!w) return;
      const closed = new Promise<void>((resolve) => {
        w.once('closed', () => resolve());
        setTimeout(resolve, CLOSE_TIMEOUT_MS).unref();
      });
      w.postMessage({ close: true });
      await closed;
      await w.terminate();
    },
  };
}
