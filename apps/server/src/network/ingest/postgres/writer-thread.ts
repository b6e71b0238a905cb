// Worker thread of the PostgreSQL batch store (thread-store.ts): one connection of its own, opened
// with the server's connection settings (db/connect.ts: the URL with its TLS and search path, the
// statement timeout), one transaction per batch, in order (../writer-thread.ts runs the batches).
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../../config';
import { openDatabase } from '../../../db/connect';
import { writeInTransaction } from '../batch-store';
import { serveBatches } from '../writer-thread';

const port = parentPort;
if (!port) throw new Error('the PostgreSQL writer thread must run as a worker thread');
const { database } = workerData as { database: Config['database'] };
if (database.kind !== 'postgres') throw new Error('this writer thread is for PostgreSQL only');
const connection = openDatabase(database, { poolSize: 1 });

serveBatches(port, {
  write: (batch) => writeInTransaction(connection.db, batch),
  close: () => connection.close(),
});
