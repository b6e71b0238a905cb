// Worker thread of the SQLite batch store (thread-store.ts): its own connection to the database
// file (WAL lets the main thread read and write meanwhile), one transaction per batch, in order. It
// gets a batch's planned writes only (protocol.ts) and answers what the lifecycle writes changed.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openDatabase } from '../../../db/connect';
import { checkpointWal, setPageCacheKib, setWalAutoCheckpoint } from '../../../db/sqlite-wal';
import { sqliteRowWrites } from '../../../repositories/sqlite/ingest-rows';
import { writeBatch } from '../write-batch';
import { unpackRows } from './packed-rows';
import type { WriterReply, WriterRequest } from './protocol';

const port = parentPort;
if (!port) throw new Error('the SQLite writer thread must run as a worker thread');
const { file, checkpointer } = workerData as { file: string; checkpointer: MessagePort | null };

// The connection of db/connect.ts with two settings for the write volume of the ingest: the page
// cache is larger than SQLite's 2 MB default (every batch appends to the per-station index at about
// as many places as there are stations, and with the default cache most of those pages were read
// back from the file on every batch), and no automatic checkpoints: the checkpointer thread
// (checkpointer-thread.ts) does them, told after each commit, so that no batch waits for
// one. Without a checkpointer (it could not start, or it stopped) the WAL is checkpointed here
// every 16 MB: the same hot pages (station rows, counters, index leaves) are in most batches, and
// a checkpoint writes each of them to the database file once however many commits changed it.
// Durability is unchanged: a commit is in the WAL before the batch's events go out.
const database = openDatabase({ kind: 'sqlite', file });
if (database.native.dialect !== 'sqlite') throw new Error('the writer thread is for SQLite only');
const sqlite = database.native.sqlite;
setPageCacheKib(sqlite, 65_536);
const FALLBACK_AUTOCHECKPOINT_PAGES = 4000;
setWalAutoCheckpoint(sqlite, checkpointer ? 0 : FALLBACK_AUTOCHECKPOINT_PAGES);
// Asked by the checkpointer when its checkpoints keep missing the end of the WAL (see there).
let catchUp = false;
checkpointer?.on('message', () => (catchUp = true));
checkpointer?.on('close', () => {
  if (sqlite.open) setWalAutoCheckpoint(sqlite, FALLBACK_AUTOCHECKPOINT_PAGES);
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
      const { lifecycle, droppedMessages } = request;
      const written = await db.transaction().execute((trx) =>
        writeBatch(
          trx,
          {
            lifecycle,
            droppedMessages,
            receptions: { shared: false, rows: unpackRows(request.rows) },
          },
          rows,
        ),
      );
      reply = { id: request.id, lifecycleChanged: written.lifecycleChanged };
    } catch (err) {
      failedEpoch = request.epoch;
      reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
    if ('error' in reply) return;
    // After the reply: the batch's events are out, only the next batch waits for this.
    if (catchUp) {
      try {
        if (checkpointWal(sqlite, 'PASSIVE')?.busy === 0) catchUp = false;
      } catch {
        // A failed checkpoint loses nothing (the frames stay in the WAL); asked again later.
      }
    }
    checkpointer?.postMessage(null);
  });
});
port.postMessage({ ready: true } satisfies WriterReply);
