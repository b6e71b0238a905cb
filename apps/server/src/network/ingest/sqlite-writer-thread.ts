// Worker thread of the SQLite batch store (batch-store.ts): its own connection to the database file
// (WAL lets the main thread read and write meanwhile), one transaction per batch, in order.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openDatabase } from '../../db/connect';
import type { WriterReply, WriterRequest } from './batch-store';
import { sqliteRowWrites } from './sqlite-rows';
import { writeBatch } from './write-batch';

const port = parentPort;
if (!port) throw new Error('sqlite-writer-thread must run as a worker thread');
const { file, checkpointer } = workerData as { file: string; checkpointer: MessagePort | null };

// The connection of db/connect.ts with two settings for the write volume of the ingest: the page
// cache is larger than SQLite's 2 MB default (every batch appends to the per-station index at about
// as many places as there are stations, and with the default cache most of those pages were read
// back from the file on every batch), and no automatic checkpoints: the checkpointer thread
// (sqlite-checkpointer-thread.ts) does them, told after each commit, so that no batch waits for
// one. Without a checkpointer (it could not start, or it stopped) the WAL is checkpointed here
// every 16 MB: the same hot pages (station rows, counters, index leaves) are in most batches, and
// a checkpoint writes each of them to the database file once however many commits changed it.
// Durability is unchanged: a commit is in the WAL before the batch's events go out.
const database = openDatabase({ kind: 'sqlite', file });
if (database.native.dialect !== 'sqlite') throw new Error('the writer thread is for SQLite only');
const sqlite = database.native.sqlite;
sqlite.pragma('cache_size = -65536');
const FALLBACK_AUTOCHECKPOINT_PAGES = 4000;
sqlite.pragma(`wal_autocheckpoint = ${checkpointer ? 0 : FALLBACK_AUTOCHECKPOINT_PAGES}`);
// Asked by the checkpointer when its checkpoints keep missing the end of the WAL (see there).
let catchUp = false;
checkpointer?.on('message', () => (catchUp = true));
checkpointer?.on('close', () => {
  if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
});
const db = database.db;
const rows = sqliteRowWrites(sqlite);

let queue: Promise<void> = Promise.resolve();
// Batches of this epoch or before, sent before the main thread knew one of them failed, are refused:
// order matters (a packet's first reception precedes the ones that join it).
let failedEpoch = -1;
port.on('message', (request: WriterRequest | { close: true }) => {
  if ('close' in request) {
    // After the batches already sent. The last connection to close (the main thread's) copies the
    // WAL into the database file and removes it.
    queue = queue.then(async () => {
      checkpointer?.close();
      await database.close();
      port.postMessage({ closed: true } satisfies WriterReply);
    });
    return;
  }
  queue = queue.then(async () => {
    let reply: WriterReply;
    if (request.epoch <= failedEpoch) {
      port.postMessage({ id: request.id, error: 'an earlier batch failed' } satisfies WriterReply);
      return;
    }
    try {
      const outcome = await db
        .transaction()
        .execute((trx) => writeBatch(trx, request.ops, request.droppedMessages, rows));
      reply = { id: request.id, outcome };
    } catch (err) {
      failedEpoch = request.epoch;
      reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
    if (!('outcome' in reply)) return;
    // After the reply: the batch's events are out, only the next batch waits for this.
    if (catchUp) {
      try {
        const [row] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
        if (row?.busy === 0) catchUp = false;
      } catch {
        // A failed checkpoint loses nothing (the frames stay in the WAL); asked again later.
      }
    }
    checkpointer?.postMessage(null);
  });
});
port.postMessage({ ready: true } satisfies WriterReply);
