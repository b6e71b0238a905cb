// The SQLite batch store: batches are committed on a connection of their own in a worker thread
// (../thread-store.ts, writer-thread.ts), because SQLite works synchronously on the calling thread
// and at thousands of receptions a second the writes would otherwise take most of the event loop
// that also runs the broker and the HTTP API. A checkpointer thread (checkpointer.ts) copies the
// WAL into the database file meanwhile.
import type { Logger } from 'pino';
import type { BatchStore } from '../batch-store';
import { threadStore } from '../thread-store';
import { startCheckpointer } from './checkpointer';
import { WRITER_BOOTSTRAP } from './protocol';

export async function sqliteThreadStore(file: string, log: Logger): Promise<BatchStore> {
  const checkpointer = await startCheckpointer(file, log);
  let store: BatchStore;
  try {
    store = await threadStore(
      {
        name: 'SQLite writer thread',
        script: WRITER_BOOTSTRAP,
        start() {
          const commits = checkpointer?.commitPort() ?? null;
          return {
            workerData: { file, checkpointer: commits },
            transferList: commits ? [commits] : [],
          };
        },
        // SQLite is not shared by instances: the thread never gets a shared batch.
        shared: false,
      },
      log,
    );
  } catch (err) {
    await checkpointer?.close();
    throw err;
  }
  return {
    ...store,
    async close() {
      await store.close();
      const stats = await checkpointer?.close();
      if (stats) log.info({ checkpointer: stats }, 'SQLite checkpointer stopped');
    },
  };
}
