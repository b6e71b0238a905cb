// Main-thread time of the ingest by stage: a CPU profile of this process (the server's main thread;
// the SQLite writer and checkpointer threads are not in it) taken with the inspector while the load
// runs, each sample's time given to the innermost function of a known stage on its stack (a builtin
// such as JSON.parse counts for the stage that called it).
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Stages in the order a reception meets them; the first rule matching a frame's URL names it. */
const STAGES: [stage: string, test: RegExp][] = [
  [
    'broker (MQTT parsing, sockets, QoS 1 acks)',
    /node_modules\/(aedes|mqtt-packet|mqemitter|qlobber|bl|fastfall|fastparallel|fastseries|reusify|hyperid|retimer|end-of-stream|readable-stream|process-nextick|safe-buffer|uuid|aedes-)/,
  ],
  [
    'parse and validate (JSON, schema)',
    /network\/(message-router|broker|broker-admission|packet-size-guard)\.ts|node_modules\/zod\//,
  ],
  ['station registry (seen)', /network\/station-registry\.ts/],
  ['decode (Kaitai decoders, checks)', /packages\/decoders\/|node_modules\/(kaitai-struct|crc)\//],
  [
    'orbit facts (SGP4, geometry)',
    /packages\/orbit\/|ingest\/orbit-facts\.ts|node_modules\/satellite\.js\//,
  ],
  ['merge, hash, rows (rx-ingest)', /ingest\/(rx-ingest|merge-index|packet-id|shared-merge)\.ts/],
  [
    'queueing, batching, copy to writer',
    /ingest\/(batch-writer|batch-store|plan-batch|write-batch|sqlite\/thread-store)\.ts|repositories\/sqlite\/ingest-rows\.ts/,
  ],
  // new-packet events and what they drop (cached public lists)
  [
    'live events (SSE, event bus, caches)',
    /network\/sse|src\/events|sse-route|public-api\/|read-models\//,
  ],
  ['metrics', /network\/metrics\.ts/],
];
const GC = 'garbage collection';
const OTHER = 'other (runtime, timers, benchmark)';

/** The stages of the SQLite writer thread's batch (network/ingest/sqlite/writer-thread.ts). */
const WRITER_STAGES: [stage: string, test: RegExp][] = [
  ['telemetry samples of new packets', /repositories\/telemetry\.ts|telemetry\/samples\.ts/],
  [
    'prepared row writes (receptions, packets, station and daily statistics)',
    /repositories\/sqlite\/ingest-rows\.ts/,
  ],
  ['leaderboard tallies', /repositories\/leaderboards\.ts|ingest\/leaderboard-tally\.ts/],
  [
    'station, satellite and daily statistics, counters',
    /repositories\/(packets|stations|counters|station-health|satnogs-outbox)\.ts/,
  ],
  ['batch assembly (write-batch)', /ingest\/write-batch\.ts/],
  ['checkpoints', /ingest\/sqlite\/checkpointer-thread\.ts|db\/sqlite-wal\.ts/],
  // SQL built through Kysely counts for the repository that asked for it (so does SQLite's own
  // time in better-sqlite3, native frames without a URL)
  [
    'receiving the batch (message, structured clone)',
    /ingest\/sqlite\/writer-thread\.ts|node:internal\/worker/,
  ],
];

function stageOf(node: ProfileNode, stages: [string, RegExp][]): string | null {
  const { functionName, url } = node.callFrame;
  if (functionName === '(garbage collector)') return GC;
  if (functionName === '(program)') return OTHER;
  if (!url) return null;
  for (const [stage, test] of stages) if (test.test(url)) return stage;
  return null;
}

export interface StageProfile {
  /** the profile's wall time, ms */
  wallMs: number;
  /** main thread busy (not idle), ms */
  busyMs: number;
  byStageMs: Record<string, number>;
  /** the functions with the most time of their own (self time, ms): "file:function" */
  topFunctionsMs: Record<string, number>;
}

/** Starts profiling this thread; the returned function stops and sums the samples by stage. */
export async function startStageProfile(intervalUs = 500): Promise<() => Promise<StageProfile>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    session.disconnect();
    return summarise(profile, STAGES);
  };
}

/** Sums a profile's samples by stage. */
function summarise(profile: Profile, stages: [string, RegExp][]): StageProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Each node's stage: its own, or its caller's (the tree is walked from the root).
  const stage = new Map<number, string>();
  const root = profile.nodes[0];
  const stack: [number, string][] = root ? [[root.id, OTHER]] : [];
  while (stack.length > 0) {
    const [id, inherited] = stack.pop() ?? [0, OTHER];
    const node = byId.get(id);
    if (!node) continue;
    const own =
      node.callFrame.functionName === '(idle)' ? 'idle' : (stageOf(node, stages) ?? inherited);
    stage.set(id, own);
    for (const child of node.children ?? []) stack.push([child, own]);
  }
  const byStageMs: Record<string, number> = {};
  const byFunction = new Map<string, number>();
  let wallUs = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    // the time up to the next sample belongs to this one
    const us = profile.timeDeltas[i + 1] ?? 0;
    wallUs += us;
    const s = stage.get(profile.samples[i] ?? -1) ?? OTHER;
    byStageMs[s] = (byStageMs[s] ?? 0) + us / 1000;
    const frame = byId.get(profile.samples[i] ?? -1)?.callFrame;
    if (frame && s !== 'idle') {
      const name = `${frame.url.replace(/^.*\/(node_modules|src)\//, '')}:${frame.functionName || '(anonymous)'}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + us / 1000);
    }
  }
  const idleMs = byStageMs.idle ?? 0;
  delete byStageMs.idle;
  const topFunctionsMs = Object.fromEntries(
    [...byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([name, ms]) => [name, Math.round(ms)]),
  );
  return { wallMs: wallUs / 1000, busyMs: wallUs / 1000 - idleMs, byStageMs, topFunctionsMs };
}

/**
 * Profiles this process's worker threads (the SQLite writer and checkpointer) through the
 * inspector's NodeWorker domain; the returned function stops and sums each by writer stage, keyed
 * by the worker's script name.
 */
export async function startWorkerProfiles(
  intervalUs = 500,
): Promise<() => Promise<Record<string, StageProfile>>> {
  const session = new Session();
  session.connect();
  const workers = new Map<string, string>();
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  session.on('NodeWorker.receivedMessageFromWorker', (m) => {
    const message = JSON.parse(m.params.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const ask = (sessionId: string, method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void session.post('NodeWorker.sendMessageToWorker', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      });
    });
  session.on('NodeWorker.attachedToWorker', (m) => {
    workers.set(m.params.sessionId, m.params.workerInfo.url.replace(/^.*\//, ''));
  });
  await session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
  // attachedToWorker arrives for the running workers before enable answers
  for (const id of workers.keys()) {
    await ask(id, 'Profiler.enable');
    await ask(id, 'Profiler.setSamplingInterval', { interval: intervalUs });
    await ask(id, 'Profiler.start');
  }
  return async () => {
    const out: Record<string, StageProfile> = {};
    for (const [id, name] of workers) {
      const { profile } = (await ask(id, 'Profiler.stop')) as { profile: Profile };
      const summary = summarise(profile, WRITER_STAGES);
      // named by the stage it spends most in (worker URLs are often empty)
      const main = Object.entries(summary.byStageMs).sort((a, b) => b[1] - a[1])[0]?.[0];
      out[`${name || 'thread'} ${Object.keys(out).length + 1} (mostly ${main ?? 'idle'})`] =
        summary;
    }
    await session.post('NodeWorker.disable');
    session.disconnect();
    return out;
  };
}
