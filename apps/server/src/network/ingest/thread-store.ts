// A batch store whose batches are committed on a connection of their own in a worker thread
// (writer-thread.ts), one transaction per batch, in the order they were sent. The dialects' stores
// (sqlite/thread-store.ts, postgres/thread-store.ts) name the thread's script and what it opens.
// Writing a batch is most of the ingest's CPU time on the main thread otherwise: building and
// running a dozen statements per batch (SQLite runs them synchronously; with PostgreSQL the query
// building, parameter preparation and protocol parsing), at thousands of receptions a second, in
// the event loop that also runs the broker and the HTTP API. The thread gets each batch's writes
// only (writer-protocol.ts), its rows packed (packed-rows.ts).
import { Worker, type Transferable } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { BatchStore } from './batch-store';
import { packRows } from './packed-rows';
import type { BatchWritten } from './write-batch';
import { CLOSE_TIMEOUT_MS, type WriterReply, type WriterRequest } from './writer-protocol';

export interface WriterThread {
  /** for messages: 'SQLite writer thread' */
  name: string;
  /** the worker's script (`eval: true`) */
  script: string;
  /** the worker's data for each start (a restart after the thread died gets a fresh one) */
  start(): { workerData: unknown; transferList: Transferable[] };
  /** the store takes shared batches (plan-batch.ts, shared mode) */
  shared: boolean;
}

/** The store; rejects when the thread does not start. */
export async function threadStore(thread: WriterThread, log: Logger): Promise<BatchStore> {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<
    number,
    { epoch: number; resolve: (w: BatchWritten) => void; reject: (e: Error) => void }
  >();
  let closing = false;
  // Raised when a batch fails: what was sent before that was known is refused by the thread,
  // what is sent after runs.
  let epoch = 0;

  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  const spawn = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const { workerData, transferList } = thread.start();
      const w = new Worker(thread.script, { eval: true, workerData, transferList });
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
        } else p.resolve(reply.written);
      });
      w.on('error', (err) => {
        log.error({ err }, `${thread.name} failed`);
        reject(err);
      });
      w.on('exit', (code) => {
        if (worker === w) worker = null;
        failAll(new Error(`${thread.name} exited (${code})`));
        reject(new Error(`${thread.name} exited (${code}) before it was ready`));
        if (!closing && code !== 0)
          log.error({ code }, `${thread.name} exited; it is restarted with the next batch`);
      });
    });

  worker = await spawn();
  // One restart at a time, however many writes are waiting for it.
  let respawn: Promise<Worker> | null = null;
  return {
    // One batch commits while the next is already with the thread, waiting: the thread starts it
    // the moment the previous commit ends, without a round trip through the busy main thread.
    // The thread runs them one after the other on its one connection, so they commit in order.
    maxInFlight: 2,
    shared: thread.shared,
    async write(plan) {
      if (plan.receptions.shared && !thread.shared)
        throw new Error(`the ${thread.name} takes no shared batch`);
      if (!worker) {
        respawn ??= spawn().finally(() => (respawn = null));
        worker = await respawn;
      }
      const id = nextId++;
      // The batch's writes only: its events stay here (plan.receptions.planned.events).
      let receptions: WriterRequest['receptions'];
      let transfer: ArrayBuffer[] = [];
      if (plan.receptions.shared) receptions = plan.receptions;
      else {
        const packed = packRows(plan.receptions.planned.rows);
        receptions = { shared: false, rows: packed.packed };
        transfer = packed.transfer;
      }
      const request: WriterRequest = {
        id,
        epoch,
        lifecycle: plan.lifecycle,
        droppedMessages: plan.droppedMessages,
        receptions,
      };
      const result = new Promise<BatchWritten>((resolve, reject) =>
        pending.set(id, { epoch: request.epoch, resolve, reject }),
      );
      worker.postMessage(request, transfer);
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
