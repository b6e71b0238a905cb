// The SQLite batch store: batches are committed on a connection of their own in a worker thread
// (writer-thread.ts), because SQLite works synchronously on the calling thread and at thousands of
// receptions a second the writes would otherwise take most of the event loop that also runs the
// broker and the HTTP API. The thread gets each batch's writes only (protocol.ts), its rows packed
// (packed-rows.ts); a checkpointer thread (checkpointer.ts) copies the WAL into the database file
// meanwhile.
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { BatchStore } from '../batch-store';
import type { BatchWritten } from '../write-batch';
import { startCheckpointer } from './checkpointer';
import { packRows } from './packed-rows';
import {
  CLOSE_TIMEOUT_MS,
  WRITER_BOOTSTRAP,
  type WriterReply,
  type WriterRequest,
} from './protocol';

export async function sqliteThreadStore(file: string, log: Logger): Promise<BatchStore> {
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
        } else p.resolve({ lifecycleChanged: reply.lifecycleChanged });
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
    shared: false,
    async write(plan) {
      // SQLite is not shared by instances: the thread never gets a shared batch.
      if (plan.receptions.shared) throw new Error('the SQLite writer thread takes no shared batch');
      if (!worker) {
        respawn ??= spawn().finally(() => (respawn = null));
        worker = await respawn;
      }
      const id = nextId++;
      // The batch's writes only: its events stay here (plan.receptions.planned.events).
      const { packed, transfer } = packRows(plan.receptions.planned.rows);
      const request: WriterRequest = {
        id,
        epoch,
        lifecycle: plan.lifecycle,
        droppedMessages: plan.droppedMessages,
        rows: packed,
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
