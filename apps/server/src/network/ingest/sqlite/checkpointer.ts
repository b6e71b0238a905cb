// The checkpointer thread of the SQLite batch store (checkpointer-thread.ts), seen from the main
// thread: started once, it hands each writer thread a port to report its commits on.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import {
  CHECKPOINTER_BOOTSTRAP,
  CLOSE_TIMEOUT_MS,
  type CheckpointerReply,
  type CheckpointerRequest,
  type CheckpointerStats,
} from './protocol';

// Checkpoint at most this often (right after a commit); past CATCH_UP_PAGES in the WAL (4 KiB
// each: 16 MB) the writer finishes a checkpoint between two batches; past WAL_VALVE_PAGES (64 MB:
// a reader keeps old frames) the WAL is forced to start again, waiting for the writer and readers.
const CHECKPOINT_EVERY_MS = 250;
const CATCH_UP_PAGES = 4_000;
const WAL_VALVE_PAGES = 16_000;

export interface Checkpointer {
  /** a port for one writer thread to report its commits on; null once the thread is gone */
  commitPort(): MessagePort | null;
  close(): Promise<CheckpointerStats | null>;
}

/** The checkpointer thread, or null when it cannot start (the writer then checkpoints itself). */
export async function startCheckpointer(file: string, log: Logger): Promise<Checkpointer | null> {
  let alive = true;
  const w = new Worker(CHECKPOINTER_BOOTSTRAP, {
    eval: true,
    workerData: {
      file,
      everyMs: CHECKPOINT_EVERY_MS,
      catchUpPages: CATCH_UP_PAGES,
      valvePages: WAL_VALVE_PAGES,
    },
  });
  let closedWith: ((s: CheckpointerStats | null) => void) | null = null;
  const ready = new Promise<boolean>((resolve) => {
    w.on('message', (reply: CheckpointerReply) => {
      if ('ready' in reply) resolve(true);
      else if ('closed' in reply) closedWith?.(reply.stats);
    });
    w.on('error', (err) => {
      log.error({ err }, 'SQLite checkpointer thread failed; the writer checkpoints itself');
      resolve(false);
    });
    w.on('exit', () => {
      alive = false;
      resolve(false);
      closedWith?.(null);
    });
  });
  if (!(await ready)) {
    await w.terminate();
    return null;
  }
  return {
    commitPort() {
      if (!alive) return null;
      const { port1, port2 } = new MessageChannel();
      w.postMessage({ commits: port2 } satisfies CheckpointerRequest, [port2]);
      return port1;
    },
    async close() {
      if (!alive) return null;
      const stats = new Promise<CheckpointerStats | null>((resolve) => {
        closedWith = resolve;
        setTimeout(() => resolve(null), CLOSE_TIMEOUT_MS).unref();
      });
      w.postMessage({ close: true } satisfies CheckpointerRequest);
      const result = await stats;
      await w.terminate();
      return result;
    },
  };
}
