// Checkpointer thread of the SQLite batch store (thread-store.ts): copies committed WAL frames into
// the database file on a connection of its own, so that the writer thread never does it inside a
// batch commit (an automatic checkpoint runs in the commit that crosses the threshold, and its
// writes and fsyncs held back that batch's events by up to 300 ms). The writer runs with
// wal_autocheckpoint = 0 and tells this thread after every commit (a message port of their own,
// past the main thread); a PASSIVE checkpoint then runs here when the last one is at least
// CHECKPOINT_EVERY_MS old. PASSIVE takes no lock that the writer or readers wait for.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { checkpointWal, openCheckpointConnection, setBusyTimeout } from '../../../db/sqlite-wal';
import type { CheckpointerReply, CheckpointerRequest, CheckpointerStats } from './protocol';

const port = parentPort;
if (!port) throw new Error('the SQLite checkpointer thread must run as a worker thread');
const { file, everyMs, catchUpPages, valvePages } = workerData as {
  file: string;
  everyMs: number;
  catchUpPages: number;
  valvePages: number;
};

// No busy waits: PASSIVE never waits anyway, and the valve sets its own timeout. This connection
// only reads; it must never checkpoint on its own terms either.
const sqlite = openCheckpointConnection(file);
const stats: CheckpointerStats = {
  checkpoints: 0,
  caughtUp: 0,
  catchUpsAsked: 0,
  walRestarts: 0,
  valveRuns: 0,
  maxWalPages: 0,
  maxCheckpointMs: 0,
};
let lastAt = 0;
let lastWalPages = 0;
let closed = false;

const checkpoint = (mode: 'PASSIVE' | 'RESTART') => checkpointWal(sqlite, mode);

function run(writer: MessagePort | null): void {
  if (closed) return;
  const started = performance.now();
  try {
    const row = checkpoint('PASSIVE');
    stats.checkpoints += 1;
    if (row) {
      stats.maxWalPages = Math.max(stats.maxWalPages, row.log);
      if (row.log < lastWalPages) stats.walRestarts += 1;
      lastWalPages = row.log;
      if (row.busy === 0 && row.checkpointed === row.log) stats.caughtUp += 1;
      // Copying every frame is not enough for the WAL to start again: the writer must also begin
      // its next transaction after that, and it usually began the next batch while this ran (the
      // next one is already waiting for it, and a checkpoint's two fsyncs take 10-200 ms). Past
      // catchUpPages the writer runs a checkpoint itself between two batches, with no transaction
      // open, so its next commit starts the WAL again. Only the frames of the last commit or two
      // are left to copy by then.
      if (row.log > catchUpPages && writer) {
        writer.postMessage({ catchUp: true });
        stats.catchUpsAsked += 1;
      }
      // Safety valve: a reader that keeps an old snapshot for long, or checkpoints that never catch
      // up with the writer, would let the WAL grow without end (and every read slows with its
      // size). RESTART waits (busy_timeout) for the writer and readers and then has the WAL start
      // again; the writer's next commit waits for it meanwhile, once in a long while.
      if (row.log > valvePages) {
        setBusyTimeout(sqlite, 2000);
        try {
          checkpoint('RESTART');
          stats.valveRuns += 1;
        } finally {
          setBusyTimeout(sqlite, 0);
        }
      }
    }
  } catch {
    // SQLITE_BUSY (another connection checkpoints) or a passing I/O error: tried again next time.
  }
  const ended = performance.now();
  stats.maxCheckpointMs = Math.max(stats.maxCheckpointMs, ended - started);
  lastAt = ended;
}

/** After a commit of the writer thread (one port per writer thread; a restarted one sends anew). */
const commitPorts = new Set<MessagePort>();
function listen(commits: MessagePort): void {
  commitPorts.add(commits);
  commits.on('message', () => {
    if (performance.now() - lastAt >= everyMs) run(commits);
  });
  commits.on('close', () => commitPorts.delete(commits));
}
// Commits of other connections (the main thread's writes) are checkpointed too, if less promptly.
const timer = setInterval(() => {
  if (performance.now() - lastAt >= everyMs) run(null);
}, everyMs * 4);

port.on('message', (request: CheckpointerRequest) => {
  if ('commits' in request) {
    listen(request.commits);
    return;
  }
  if ('stats' in request) {
    port.postMessage({ stats: { ...stats } } satisfies CheckpointerReply);
    return;
  }
  closed = true;
  clearInterval(timer);
  for (const p of commitPorts) p.close();
  sqlite.close();
  port.postMessage({ closed: true, stats: { ...stats } } satisfies CheckpointerReply);
});
port.postMessage({ ready: true } satisfies CheckpointerReply);
