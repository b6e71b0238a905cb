// Worker thread of the SQLite batch store (batch-store.ts): its own connection to the database file
// (WAL lets the main thread read and write meanwhile), one transaction per batch, in order.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/connect';
import type { WriterReply, WriterRequest } from './batch-store';
import { sqliteRowWrites } from './sqlite-rows';
import { writeBatch } from './write-batch';

const port = parentPort;
if (!port) throw new Error('sqlite-writer-thread must run as a worker thread');
const { file } = workerData as { file: string };

// The connection of db/connect.ts with two settings for the write volume of the ingest: the page
// cache is larger than SQLite's 2 MB default (every batch appends to the per-station index at about
// as many places as there are stations, and with the default cache most of those pages were read
// back from the file on every batch), and the WAL is checkpointed every 16 MB instead of every 4 MB:
// the same hot pages (station rows, counters, index leaves) are in most batches, and a checkpoint
// writes each of them to the database file once however many commits changed it. Durability is
// unchanged: a commit is in the WAL before the batch's events go out.
const database = openDatabase({ kind: 'sqlite', file });
if (database.native.dialect !== 'sqlite') throw new Error('the writer thread is for SQLite only');
const sqlite = database.native.sqlite;
sqlite.pragma('cache_size = -65536');
sqlite.pragma('wal_autocheckpoint = 4000');
const db = database.db;
const rows = sqliteRowWrites(sqlite);

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
      const outcome = await db
        .transaction()
        .execute((trx) => writeBatch(trx, request.ops, request.droppedMessages, rows));
      reply = { id: request.id, outcome };
    } catch (err) {
      reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
});
port.postMessage({ ready: true } satisfies WriterReply);
