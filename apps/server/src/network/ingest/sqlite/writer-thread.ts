// Worker thread of the SQLite batch store (thread-store.ts): its own connection to the database
// file (WAL lets the main thread read and write meanwhile), one transaction per batch, in order. It
// gets a batch's planned writes only (../writer-protocol.ts) and answers what the lifecycle writes
// changed (../writer-thread.ts runs the batches).
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openDatabase } from '../../../db/connect';
import { checkpointWal, setPageCacheKib, setWalAutoCheckpoint } from '../../../db/sqlite-wal';
import { sqliteRowWrites } from '../../../repositories/sqlite/ingest-rows';
import { writeBatch } from '../write-batch';
import { serveBatches } from '../writer-thread';

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

serveBatches(port, {
  write: (batch) => db.transaction().execute((trx) => writeBatch(trx, batch, rows)),
  committed() {
    if (catchUp) {
      try {
        if (checkpointWal(sqlite, 'PASSIVE')?.busy === 0) catchUp = false;
      } catch {
        // A failed checkpoint loses nothing (the frames stay in the WAL); asked again later.
      }
    }
    checkpointer?.postMessage(null);
  },
  // The last connection to close (the main thread's) copies the WAL into the database file and
  // removes it.
  async close() {
    checkpointer?.close();
    await database.close();
  },
});
