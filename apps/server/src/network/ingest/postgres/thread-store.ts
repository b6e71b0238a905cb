// The PostgreSQL batch store: batches are committed on a connection of its own in a worker thread
// (../thread-store.ts, writer-thread.ts). The database does the writing in its own processes, but
// building a batch's dozen statements, preparing their parameters and reading the answers cost the
// main thread about as much as the HTTP API's reads at a thousand receptions a second.
import type { Logger } from 'pino';
import type { Config } from '../../../config';
import { tsWorkerScript } from '../../../lib/ts-worker';
import type { BatchStore } from '../batch-store';
import { threadStore } from '../thread-store';

const WRITER_BOOTSTRAP = tsWorkerScript(new URL('./writer-thread.ts', import.meta.url));

/** `shared`: other instances store packets of the same frames (write-batch.ts, shared mode). */
export function postgresThreadStore(
  database: Extract<Config['database'], { kind: 'postgres' }>,
  shared: boolean,
  log: Logger,
): Promise<BatchStore> {
  return threadStore(
    {
      name: 'PostgreSQL writer thread',
      script: WRITER_BOOTSTRAP,
      start: () => ({ workerData: { database }, transferList: [] }),
      shared,
    },
    log,
  );
}
