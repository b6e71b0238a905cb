// Long reads of SQLite off the event loop. better-sqlite3 works synchronously on the calling
// thread, so a read of thousands of rows (a page of the leaderboard aggregates, a day of raw
// telemetry samples) holds every other request of the process for its duration. Such reads are
// sent here instead: compiled SQL and parameters go to a worker thread (read-thread-worker.ts) with
// a read-only connection of its own, which answers the rows column by column, or the finished
// document made of them (read-documents.ts: its bytes and ETag). Two such threads where the
// machine has two cores or more, so that one long read does not hold the others; a read goes to
// the thread with the fewest reads waiting, and each thread answers its reads in the order they
// were sent. A thread starts with its first read and again after a failure.
import { Worker } from 'node:worker_threads';
import { tsWorkerScript } from '../lib/ts-worker';
import type { DocumentBytes, ReadDocument } from './read-documents';

/** One column of a read as a statement of its own (SQL with `?` parameters). */
export interface ColumnRead {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * `document`: answer the document made of the rows instead of the rows; `columns`: read its
 * columns with these one-column statements instead of `sql` (the same rows, column by column).
 */
export type ReadRequest =
  | {
      id: number;
      sql: string;
      parameters: readonly unknown[];
      document?: ReadDocument;
      columns?: readonly ColumnRead[];
    }
  | { close: true };
/** `values`: the rows column by column (read-thread-worker.ts), `count` of them. */
export type ReadReply =
  | { id: number; columns: string[]; count: number; values: (unknown[] | Float64Array)[] }
  | { id: number; bytes: Uint8Array; etag: string }
  | { id: number; error: string }
  | { ready: true }
  | { closed: true };

const READ_THREAD = tsWorkerScript(new URL('./read-thread-worker.ts', import.meta.url));
const CLOSE_TIMEOUT_MS = 5_000;
/** Reads waiting for the threads at once, all clients together; past it a read is refused at once. */
export const MAX_WAITING_READS = 256;

/** A read refused because MAX_WAITING_READS are already waiting (answered 503 over HTTP). */
export class ReadsBusyError extends Error {
  readonly code = 'READS_BUSY';
  constructor() {
    super('too many reads waiting for the SQLite read threads');
  }
}

export interface ReadResult {
  columns: string[];
  count: number;
  /** column by column */
  values: ArrayLike<unknown>[];
}

type Answer = ReadResult | DocumentBytes;

interface Pending {
  resolve: (r: Answer) => void;
  reject: (e: Error) => void;
}

/** One read thread: its worker (started with its first read) and the reads it was sent. */
interface Thread {
  worker: Promise<Worker> | null;
  pending: Map<number, Pending>;
}

/** Read threads on a machine of `cores` cores: two where there are two or more, else one. */
export function readThreadsFor(cores: number): number {
  return Math.max(1, Math.min(2, cores));
}

export class SqliteReadThreads {
  private readonly threads: Thread[];
  private nextId = 1;
  private closed = false;
  /** reads asked for and not yet answered, including those waiting for a thread to start */
  private waiting = 0;

  /** `count` threads, each with a connection of its own; a read goes to the least busy. */
  constructor(
    private readonly file: string,
    count: number,
  ) {
    this.threads = Array.from({ length: count }, () => ({ worker: null, pending: new Map() }));
  }

  /** The rows of one read statement (SQL with `?` parameters), column by column. */
  all(sql: string, parameters: readonly unknown[]): Promise<ReadResult> {
    return this.ask(sql, parameters) as Promise<ReadResult>;
  }

  /**
   * The document made of one read statement's rows, finished on the thread; its columns read by
   * `columns` when given (one statement each, in one snapshot).
   */
  document(
    sql: string,
    parameters: readonly unknown[],
    document: ReadDocument,
    columns?: readonly ColumnRead[],
  ): Promise<DocumentBytes> {
    return this.ask(sql, parameters, document, columns) as Promise<DocumentBytes>;
  }

  private async ask(
    sql: string,
    parameters: readonly unknown[],
    document?: ReadDocument,
    columns?: readonly ColumnRead[],
  ): Promise<Answer> {
    if (this.closed) throw new Error('the database is closed');
    if (this.waiting >= MAX_WAITING_READS) throw new ReadsBusyError();
    this.waiting += 1;
    try {
      // The thread with the fewest reads sent and not answered (the first on a tie).
      let thread = this.threads[0] as Thread;
      for (const t of this.threads) if (t.pending.size < thread.pending.size) thread = t;
      const id = this.nextId++;
      const answer = new Promise<Answer>((resolve, reject) =>
        thread.pending.set(id, { resolve, reject }),
      );
      // A thread that dies before the read is sent rejects it too: reported by the start below.
      answer.catch(() => undefined);
      // Counted as the thread's at once, so reads asked together spread over the threads.
      let worker: Worker;
      try {
        worker = await (thread.worker ??= this.spawn(thread));
      } catch (err) {
        thread.pending.delete(id);
        throw err;
      }
      worker.postMessage({
        id,
        sql,
        parameters,
        ...(document ? { document } : {}),
        ...(columns ? { columns } : {}),
      } satisfies ReadRequest);
      return await answer;
    } finally {
      this.waiting -= 1;
    }
  }

  private spawn(thread: Thread): Promise<Worker> {
    const started = new Promise<Worker>((resolve, reject) => {
      const w = new Worker(READ_THREAD, { eval: true, workerData: { file: this.file } });
      w.on('message', (reply: ReadReply) => {
        if ('ready' in reply) resolve(w);
        if (!('id' in reply)) return;
        const p = thread.pending.get(reply.id);
        thread.pending.delete(reply.id);
        if (!p) return;
        if ('error' in reply) p.reject(new Error(reply.error));
        // The bytes' memory was moved here with the message: wrapped, not copied.
        else if ('bytes' in reply)
          p.resolve({
            bytes: Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength),
            etag: reply.etag,
          });
        else p.resolve({ columns: reply.columns, count: reply.count, values: reply.values });
      });
      w.on('error', (err) => reject(err));
      w.on('exit', (code) => {
        reject(new Error(`SQLite read thread exited (${code})`));
        if (thread.worker === started) thread.worker = null;
        const failed = new Error(`SQLite read thread exited (${code})`);
        for (const p of thread.pending.values()) p.reject(failed);
        thread.pending.clear();
      });
    });
    // A thread that cannot start is tried again by its next read.
    started.catch(() => {
      if (thread.worker === started) thread.worker = null;
    });
    return started;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.threads.map(async (thread) => {
        const starting = thread.worker;
        thread.worker = null;
        const w = await starting?.catch(() => null);
        if (!w) return;
        const done = new Promise<void>((resolve) => {
          w.on('message', (reply: ReadReply) => {
            if ('closed' in reply) resolve();
          });
          w.once('exit', () => resolve());
          setTimeout(resolve, CLOSE_TIMEOUT_MS).unref();
        });
        w.postMessage({ close: true } satisfies ReadRequest);
        await done;
        await w.terminate();
      }),
    );
  }
}
