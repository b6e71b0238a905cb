// The thread side of a batch store on a worker thread (thread-store.ts): batches run one after the
// other, each in one transaction of the dialect's connection (sqlite/writer-thread.ts,
// postgres/writer-thread.ts), and each is answered (writer-protocol.ts) as it commits or fails.
import type { MessagePort } from 'node:worker_threads';
import { unpackRows } from './packed-rows';
import type { BatchWrites, BatchWritten } from './write-batch';
import type { WriterReply, WriterRequest } from './writer-protocol';

export interface ThreadWriter {
  /** writes one batch in one transaction */
  write(batch: BatchWrites): Promise<BatchWritten>;
  /** after a commit was answered: only the next batch waits for this */
  committed?(): void;
  /** after the batches already sent */
  close(): Promise<void>;
}

/** Answers the store's messages on `port`, and tells it the thread is ready. */
export function serveBatches(port: MessagePort, writer: ThreadWriter): void {
  let queue: Promise<void> = Promise.resolve();
  // Batches of this epoch or before, sent before the main thread knew one of them failed, are
  // refused: order matters (a packet's first reception precedes the ones that join it).
  let failedEpoch = -1;
  port.on('message', (request: WriterRequest | { close: true }) => {
    if ('close' in request) {
      queue = queue.then(async () => {
        await writer.close();
        port.postMessage({ closed: true } satisfies WriterReply);
      });
      return;
    }
    queue = queue.then(async () => {
      if (request.epoch <= failedEpoch) {
        port.postMessage({
          id: request.id,
          error: 'an earlier batch failed',
        } satisfies WriterReply);
        return;
      }
      let reply: WriterReply;
      try {
        const { lifecycle, droppedMessages, receptions } = request;
        const written = await writer.write({
          lifecycle,
          droppedMessages,
          receptions: receptions.shared
            ? receptions
            : { shared: false, rows: unpackRows(receptions.rows) },
        });
        reply = { id: request.id, written };
      } catch (err) {
        failedEpoch = request.epoch;
        reply = { id: request.id, error: err instanceof Error ? err.message : String(err) };
      }
      port.postMessage(reply);
      if (!('error' in reply)) writer.committed?.();
    });
  });
  port.postMessage({ ready: true } satisfies WriterReply);
}
