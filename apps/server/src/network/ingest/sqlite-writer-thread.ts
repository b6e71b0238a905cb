// Worker thread of the SQLite batch store (batch-store.ts): its own connection to the database file
// (WAL lets the main thread read and write meanwhile), one transaction per batch, in order.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/connect';
import type { WriterReply, WriterRequest } from './batch-store';
import { writeBatch } from './write-batch';

const port = parentPort;
if (!port) throw new Error('sqlite-writer-thread must run as a worker thread');
const { file } = workerData as { file: string };
const database = openDatabase({ kind: 'sqlite', file });

let queue: Promise<void> = Promise.resolve();
port.on('message', (request: WriterRequest | { close: true }) => {
  if ('close' in request) {
    // After the batches already sent: the connection closes cleanly (WAL checkpointed).
    queue = queue.then(async () => {
      await database.close();
      port.postMessage({ closed: true } satisfies WriterReply);
    });
    return;
  }
  queue = queue.then(async () => {
    let reply: WriterReply;
    try {
      const outcome = await database.db
        .transaction()
        .execute((trx) => writeBatch(trx, request.ops, request.droppedMessages));
      reply = { id: request.id, outcome };
    } catch (err) {
      reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
});
port.postMessage({ ready: true } satisfies WriterReply);
