// `npm run bench:sse`: the live event stream at 10,000 stations and 10,000 clients, on the real
// server's GET /sse/events (in-process server on SQLite, no broker; client connections in child
// processes so that neither side runs out of file descriptors or shares an event loop).
//
// - new-packet: one event published on ctx.events, timed until the last client has it.
// - stations (the spec's full list, GET /sse/events) and stations-delta (?stations=delta): each
//   event follows one 5-s window of station changes at a realistic rate (see CHANGE_RATE_WHY),
//   written to the database and announced on ctx.events as ingest does. Measured: bytes each client
//   receives, time to the last client, and the server process's CPU time from the announcement to
//   the last client (database read, comparison, serialisation, writes).
// - Ceiling, in the same run: a bare node:http server writing the same number of bytes to the same
//   number of chunked responses (same client processes), timed and CPU-measured the same way.
//
// Bytes per client per hour = bytes per event x events per hour (one per 5-s window that has a
// change a map shows), plus, for the delta form, the whole list a client receives on connect (one
// connection per hour). Pass flags are computed from the goals below. Writes bench/results/sse.json.
//   npm run sse -w bench -- [--clients 10000] [--stations 10000] [--events 5] [--station-events 1]
//     [--delta-events 5] [--changes-per-s 15] [--receiving-per-s 100]
// A full-list event at 10,000 stations is ~2.2 MB to each of 10,000 clients (22 GB over loopback):
// one per form and ceiling by default.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, request, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { NewPacketEvent } from '@tinygs/contracts';
import { pino } from 'pino';
import {
  createServer,
  DEFAULT_SSE_OPTIONS,
  loadConfig,
  STATIONS_COALESCE_MS,
  type Server,
} from '@tinygs/server/testing';
import { seedStations, stationIdOf, supportedSatellites } from './api-seed';
import { median, round, sleep, writeResult, type Headline } from './machine';

const CLIENT_ENV = 'TINYGS_BENCH_SSE_CLIENT';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const now = () => performance.timeOrigin + performance.now();
const load1m = () => round(loadavg()[0] ?? 0, 2);

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    stations: { type: 'string', default: '10000' },
    procs: { type: 'string', default: '2' },
    events: { type: 'string', default: '5' },
    /** full-list events (each is megabytes to every client) */
    'station-events': { type: 'string', default: '1' },
    'delta-events': { type: 'string', default: '5' },
    'changes-per-s': { type: 'string', default: '15' },
    'receiving-per-s': { type: 'string', default: '100' },
  },
});
const CLIENTS = Number(values.clients);
const STATIONS = Number(values.stations);
const PROCS = Number(values.procs);
const EVENTS = Number(values.events);
const STATION_EVENTS = Number(values['station-events']);
const DELTA_EVENTS = Number(values['delta-events']);
const CHANGES_PER_S = Number(values['changes-per-s']);
const RECEIVING_PER_S = Number(values['receiving-per-s']);
const WINDOW_MS = DEFAULT_SSE_OPTIONS.stationsEveryMs;
const CHANGE_RATE_WHY =
  'Auto-tune retunes a station every few minutes as passes change (PROTOCOL.md); the seeded ' +
  'network has 2/3 of stations online and 2/3 of those on auto-tune, so at 10,000 stations about ' +
  '4,400 retune every ~5 min (~15/s, each a new satellite on the map); status flips (a few per ' +
  'station and day) add ~0.5/s; new, moved, renamed and deleted stations a few per hour. ' +
  'Receptions name a further ~100 stations/s whose rows change without anything a map shows.';
const GOALS = { ratioToCeiling: 0.5, deltaCut: 10 };
/** connections each client process opens at once (well under the listen backlog) */
const CONNECT_BATCH = 100;
const LISTEN_BACKLOG = 4096;
const SLOW_CLIENT_S = 3_600;
/** every client process, killed if the run fails */
const spawned = new Set<ChildProcess>();

/** `promise`, or a rejection with `message` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

type ClientMessage =
  | { type: 'ready'; connected: number }
  | { type: 'event'; key: string; at: number; bytes: number }
  | { type: 'error'; message: string };
type ParentMessage = { type: 'close' };

/**
 * Child process: `count` SSE connections. Events are framed on the raw bytes (a full list is
 * megabytes: nothing is decoded but an event's first bytes) and counted per event name; when the
 * n-th event of a name has reached every connection, `${name}#${n}` is reported with its size.
 */
async function clientProcess(url: string, count: number): Promise<void> {
  const send = (m: ClientMessage) => process.send?.(m);
  const got = new Map<string, number>();
  const sockets: { destroy(): void }[] = [];
  const finish = (seen: Map<string, number>, head: string, size: number) => {
    const name = /^event: ([^\n]+)\n/.exec(head)?.[1];
    if (!name) return;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    const key = `${name}#${n}`;
    const arrived = (got.get(key) ?? 0) + 1;
    got.set(key, arrived);
    if (arrived === count) send({ type: 'event', key, at: now(), bytes: size });
  };
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // agent: false: one socket per request and no pool limit.
      const req = request(url, { agent: false }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET ${url} answered ${res.statusCode}`));
          return;
        }
        const seen = new Map<string, number>();
        let head = '';
        let size = 0;
        let endedWithNewline = false;
        let first = true;
        const take = (buf: Buffer, from: number, to: number) => {
          if (head.length < 64)
            head += buf.toString('latin1', from, Math.min(to, from + 64 - head.length));
          size += to - from;
        };
        res.on('data', (buf: Buffer) => {
          let start = 0;
          while (start < buf.length) {
            let end: number;
            if (endedWithNewline && buf[start] === 0x0a) end = start + 1;
            else {
              const i = buf.indexOf('\n\n', start);
              end = i < 0 ? -1 : i + 2;
            }
            if (end < 0) {
              take(buf, start, buf.length);
              endedWithNewline = buf[buf.length - 1] === 0x0a;
              return;
            }
            take(buf, start, end);
            if (first) {
              first = false;
              resolve();
            }
            finish(seen, head, size);
            head = '';
            size = 0;
            endedWithNewline = false;
            start = end;
          }
        });
      });
      req.on('error', reject);
      req.end();
      sockets.push(req);
    });
  for (let i = 0; i < count; i += CONNECT_BATCH) {
    // A batch that never connects fails the run instead of stalling it.
    await within(
      Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, open)),
      120_000,
      `${url}: connections ${i}-${i + CONNECT_BATCH} not open after 120 s`,
    );
  }
  send({ type: 'ready', connected: sockets.length });
  process.once('message', (m: ParentMessage) => {
    if (m.type !== 'close') return;
    for (const s of sockets) s.destroy();
    process.disconnect?.();
  });
}

interface Arrival {
  at: number;
  bytes: number;
}

interface Fleet {
  /** resolves when every client of every process has had event `key` (`name#n`) */
  waitFor(key: string, timeoutMs: number): Promise<Arrival>;
  close(): Promise<void>;
}

async function startClients(url: string): Promise<Fleet> {
  const self = fileURLToPath(import.meta.url);
  const children: ChildProcess[] = [];
  const arrivals = new Map<string, Arrival[]>();
  const waiters = new Map<string, (a: Arrival) => void>();
  const complete = (key: string): Arrival | null => {
    const list = arrivals.get(key) ?? [];
    if (list.length < PROCS) return null;
    return { at: Math.max(...list.map((a) => a.at)), bytes: list[0]?.bytes ?? 0 };
  };
  const ready: Promise<void>[] = [];
  for (let p = 0; p < PROCS; p += 1) {
    const count = Math.floor(CLIENTS / PROCS) + (p < CLIENTS % PROCS ? 1 : 0);
    const child = fork(self, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, [CLIENT_ENV]: JSON.stringify({ url, count }) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    spawned.add(child);
    child.once('exit', () => spawned.delete(child));
    ready.push(
      new Promise((resolve, reject) => {
        child.on('message', (m: ClientMessage) => {
          if (m.type === 'ready') resolve();
          else if (m.type === 'error') reject(new Error(m.message));
          else if (m.type === 'event') {
            const list = arrivals.get(m.key) ?? [];
            list.push({ at: m.at, bytes: m.bytes });
            arrivals.set(m.key, list);
            const done = complete(m.key);
            if (done) waiters.get(m.key)?.(done);
          }
        });
        child.once('exit', (code) => reject(new Error(`client process exited with ${code}`)));
      }),
    );
  }
  await Promise.all(ready);
  return {
    waitFor: (key, timeoutMs) =>
      new Promise((resolve, reject) => {
        const done = complete(key);
        if (done) return resolve(done);
        const timer = setTimeout(
          () => reject(new Error(`${key} not delivered in ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        waiters.set(key, (a) => {
          clearTimeout(timer);
          resolve(a);
        });
      }),
    close: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.send({ type: 'close' } satisfies ParentMessage);
              setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
            }),
        ),
      );
    },
  };
}

interface Sample {
  /** announcement -> last client */
  ms: number;
  /** this process's CPU time (all threads) over the same span */
  cpuMs: number;
  /** bytes of the event at each client */
  bytes: number;
}

/** Fires one event and measures it until its last client. */
async function sample(
  fleet: Fleet,
  key: string,
  fire: () => void,
  timeoutMs: number,
): Promise<Sample> {
  const arrived = fleet.waitFor(key, timeoutMs);
  const cpu0 = process.cpuUsage();
  const t0 = now();
  fire();
  const { at, bytes } = await arrived;
  const cpu = process.cpuUsage(cpu0);
  return { ms: round(at - t0), cpuMs: round((cpu.user + cpu.system) / 1000), bytes };
}

function newPacketFor(k: number): NewPacketEvent {
  return {
    satellite: 'Bench Sat',
    satelliteName: 'Bench-Sat',
    packetId: `bench-${k}`,
    satPos: { lat: 12.5, lng: -45.25, alt: 520.1 },
    stations: ['Bench_0_0@800000000000', 'Bench_0_1@800000000000'],
  };
}

/** An event of exactly `bytes` bytes (the bare server's stand-in for the server's own). */
function padded(name: string, k: number, bytes: number): Buffer {
  const frame = (pad: string) => `event: ${name}\ndata: {"k":${k},"pad":"${pad}"}\n\n`;
  return Buffer.from(frame('x'.repeat(Math.max(0, bytes - Buffer.byteLength(frame(''))))));
}

/** One 5-s window of changes: the stations it names (map changes first). */
async function changeWindow(server: Server, satellites: string[], w: number): Promise<string[]> {
  const db = server.ctx.database.db;
  const mapChanges = Math.round((CHANGES_PER_S * WINDOW_MS) / 1000);
  const receiving = Math.round((RECEIVING_PER_S * WINDOW_MS) / 1000);
  const pick = (j: number) => (w * 7_919 + j * 104_729) % STATIONS;
  const at = Date.now();
  const named = new Set<string>();
  await db.transaction().execute(async (trx) => {
    for (let j = 0; j < mapChanges; j += 1) {
      const i = pick(j);
      const id = stationIdOf(i, Math.max(1, Math.floor(STATIONS / 10)));
      named.add(id);
      // ~3 % status flips, the rest retunes to another satellite.
      if (j % 33 === 0) {
        await trx
          .updateTable('stations')
          .set((eb) => ({ status: eb(eb.val<number>(1), '-', eb.ref('status')), lastSeen: at }))
          .where('id', '=', id)
          .execute();
      } else {
        const satellite = satellites[(i + w + 1) % satellites.length] as string;
        await trx.updateTable('stations').set({ satellite }).where('id', '=', id).execute();
      }
    }
    for (let j = 0; j < receiving; j += 1) {
      const id = stationIdOf(pick(mapChanges + j), Math.max(1, Math.floor(STATIONS / 10)));
      if (named.has(id)) continue;
      named.add(id);
      await trx
        .updateTable('stations')
        .set({ lastPacketTime: at, lastSeen: at })
        .where('id', '=', id)
        .execute();
    }
  });
  return [...named];
}

async function startBenchServer(dir: string): Promise<{ server: Server; satellites: string[] }> {
  const env = {
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'warn',
    SERVER_SECRET: SECRET,
    // Every client of the benchmark comes from one address.
    SSE_MAX_CLIENTS: String(CLIENTS),
    SSE_MAX_CLIENTS_PER_ADDRESS: String(CLIENTS),
    // A full list at 10,000 clients takes minutes to reach them all on this machine: with the
    // default 30 s, the server would close most streams as too slow before it is timed.
    SSE_SLOW_CLIENT_SECONDS: String(SLOW_CLIENT_S),
  };
  const options = { log: pino({ level: 'warn' }), parts: [] };
  // Schema and catalogue through the server's own start-up; then the stations straight in.
  const setup = await createServer(loadConfig(env), options);
  const satellites = await supportedSatellites(setup.ctx.database.db);
  await setup.close();
  await seedStations(
    { kind: 'sqlite', file: join(dir, 'tinygs.db') },
    {
      users: Math.max(1, Math.floor(STATIONS / 10)),
      stations: STATIONS,
      satellites,
      startMs: Date.now(),
      stepMs: 1000,
    },
    SECRET,
  );
  const server = await createServer(loadConfig(env), options);
  await server.app.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG });
  return { server, satellites };
}

const urlOf = (s: { address(): unknown }, path: string) => {
  const addr = s.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? (addr as { port: number }).port : 0}${path}`;
};

async function main(): Promise<void> {
  const loadBefore = load1m();
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-bench-sse-'));
  const newPacket: Sample[] = [];
  const full: Sample[] = [];
  const delta: Sample[] = [];
  let deltaConnect: { ms: number; bytes: number } = { ms: NaN, bytes: NaN };
  try {
    const { server, satellites } = await startBenchServer(dir);
    try {
      let window = 0;
      let lastWindowAt = 0;
      const stationsEvent = async (fleet: Fleet, key: string) => {
        // One event per window: the next change comes after the previous window has passed.
        await sleep(Math.max(0, lastWindowAt + WINDOW_MS + 500 - Date.now()));
        const ids = await changeWindow(server, satellites, (window += 1));
        lastWindowAt = Date.now();
        return sample(
          fleet,
          key,
          () => server.ctx.events.publish('stations-changed', { stationIds: ids }),
          1_800_000,
        );
      };

      console.log(`server, full list: ${CLIENTS} clients on GET /sse/events ...`);
      let fleet = await startClients(urlOf(server.app.server, '/sse/events'));
      for (let k = 1; k <= EVENTS; k += 1) {
        await sleep(500);
        newPacket.push(
          await sample(
            fleet,
            `new-packet#${k}`,
            () => server.ctx.events.publish('new-packet', newPacketFor(k)),
            60_000,
          ),
        );
      }
      for (let k = 1; k <= STATION_EVENTS; k += 1) {
        full.push(await stationsEvent(fleet, `stations#${k}`));
        console.log(`  stations #${k}: ${JSON.stringify(full.at(-1))}`);
      }
      await fleet.close();

      console.log(`server, delta form: ${CLIENTS} clients on GET /sse/events?stations=delta ...`);
      const t0 = now();
      fleet = await startClients(urlOf(server.app.server, '/sse/events?stations=delta'));
      const connected = await fleet.waitFor('stations-delta#1', 1_800_000);
      deltaConnect = { ms: round(connected.at - t0), bytes: connected.bytes };
      for (let k = 1; k <= DELTA_EVENTS; k += 1) {
        delta.push(await stationsEvent(fleet, `stations-delta#${k + 1}`));
        console.log(`  stations-delta #${k + 1}: ${JSON.stringify(delta.at(-1))}`);
      }
      await fleet.close();
    } finally {
      // Streams that never opened must not keep the run from ending.
      for (const c of spawned) c.kill('SIGKILL');
      await within(server.close(), 30_000, 'server did not close').catch(() => undefined);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Ceiling: a bare node:http server, the same bytes to the same number of chunked responses.
  console.log(`ceiling: bare node:http fan-out to ${CLIENTS} clients ...`);
  const bare = new Set<ServerResponse>();
  const bareServer = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.write(': connected\n\n');
    bare.add(res);
  });
  await new Promise<void>((r) =>
    bareServer.listen({ port: 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }, r),
  );
  const fanOut = (chunk: Buffer) => () => {
    for (const res of bare) res.write(chunk);
  };
  const ceilingNewPacket: Sample[] = [];
  const ceilingFull: Sample[] = [];
  const ceilingDelta: Sample[] = [];
  const fleet = await startClients(urlOf(bareServer, '/'));
  try {
    for (let k = 1; k <= EVENTS; k += 1) {
      await sleep(500);
      const chunk = Buffer.from(`event: new-packet\ndata: ${JSON.stringify(newPacketFor(k))}\n\n`);
      ceilingNewPacket.push(await sample(fleet, `new-packet#${k}`, fanOut(chunk), 60_000));
    }
    for (const [k, s] of full.entries()) {
      await sleep(500);
      const chunk = padded('stations', k, s.bytes);
      ceilingFull.push(await sample(fleet, `stations#${k + 1}`, fanOut(chunk), 1_800_000));
    }
    for (const [k, s] of delta.entries()) {
      await sleep(500);
      const chunk = padded('stations-delta', k, s.bytes);
      ceilingDelta.push(await sample(fleet, `stations-delta#${k + 1}`, fanOut(chunk), 60_000));
    }
  } finally {
    await fleet.close();
    for (const res of bare) res.end();
    bareServer.closeAllConnections();
    await new Promise<void>((r) => bareServer.close(() => r()));
  }

  const med = (list: Sample[], f: (s: Sample) => number) => round(median(list.map(f)));
  // The server waits STATIONS_COALESCE_MS after a change on purpose (changes arriving together
  // make one version); that wait is not fan-out and is taken off the stations latencies.
  const less = (s: Sample) => s.ms - STATIONS_COALESCE_MS;
  const windowsPerHour =
    (3_600_000 / WINDOW_MS) * (1 - Math.exp((-CHANGES_PER_S * WINDOW_MS) / 1000));
  const fullPerHour = Math.round(median(full.map((s) => s.bytes)) * windowsPerHour);
  const deltaPerHour = Math.round(
    deltaConnect.bytes + median(delta.map((s) => s.bytes)) * windowsPerHour,
  );
  const cut = round(fullPerHour / deltaPerHour, 1);
  const ratio = (ceiling: number, figure: number) => round(ceiling / figure, 2);
  const row = (
    benchmark: string,
    figure: string,
    value: number,
    ceiling: string,
    ceilingValue: number,
  ): Headline => {
    const r = ratio(ceilingValue, value);
    return {
      benchmark,
      figure,
      value,
      goal: `>= ${GOALS.ratioToCeiling} of ceiling`,
      ceiling,
      ceilingValue,
      ratio: r,
      pass: Number.isFinite(r) && r >= GOALS.ratioToCeiling,
    };
  };
  const headlines: Headline[] = [
    row(
      `SSE new-packet, ${CLIENTS} clients: publish -> last client (median ms)`,
      'ms',
      med(newPacket, (s) => s.ms),
      'bare node:http, same bytes (ms)',
      med(ceilingNewPacket, (s) => s.ms),
    ),
    row(
      `SSE stations (full list), ${STATIONS} stations, ${CLIENTS} clients: server CPU per event (ms; last client after ${med(full, less)} ms)`,
      'CPU ms',
      med(full, (s) => s.cpuMs),
      `bare node:http, same bytes (CPU ms; last client after ${med(ceilingFull, (s) => s.ms)} ms)`,
      med(ceilingFull, (s) => s.cpuMs),
    ),
    row(
      `SSE stations-delta, ${STATIONS} stations, ${CLIENTS} clients: server CPU per event (ms; last client after ${med(delta, less)} ms)`,
      'CPU ms',
      med(delta, (s) => s.cpuMs),
      `bare node:http, same bytes (CPU ms; last client after ${med(ceilingDelta, (s) => s.ms)} ms)`,
      med(ceilingDelta, (s) => s.cpuMs),
    ),
    {
      benchmark: `SSE stations-delta at ${CHANGES_PER_S} map changes/s: bytes per client per hour`,
      figure: 'bytes/h',
      value: deltaPerHour,
      goal: `<= 1/${GOALS.deltaCut} of the full list`,
      ceiling: 'full list (bytes/client/h)',
      ceilingValue: fullPerHour,
      ratio: cut,
      pass: Number.isFinite(cut) && cut >= GOALS.deltaCut,
    },
  ];
  const file = writeResult('sse', {
    clients: CLIENTS,
    stations: STATIONS,
    clientProcesses: PROCS,
    durationS: Math.round((Date.now() - started) / 1000),
    loadAverage1m: { before: loadBefore, after: load1m() },
    changeRate: {
      mapChangesPerSecond: CHANGES_PER_S,
      receivingStationsPerSecond: RECEIVING_PER_S,
      windowMs: WINDOW_MS,
      eventsPerHour: round(windowsPerHour),
      why: CHANGE_RATE_WHY,
    },
    coalesceMs: STATIONS_COALESCE_MS,
    slowClientSeconds: SLOW_CLIENT_S,
    newPacket: { server: newPacket, ceiling: ceilingNewPacket },
    stationsFull: { server: full, ceiling: ceilingFull, bytesPerClientPerHour: fullPerHour },
    stationsDelta: {
      connect: deltaConnect,
      server: delta,
      ceiling: ceilingDelta,
      bytesPerClientPerHour: deltaPerHour,
      cutAgainstFullList: cut,
    },
    headlines,
  });
  console.table(
    Object.fromEntries(
      headlines.map((h) => [
        h.benchmark,
        { value: h.value, ceiling: h.ceilingValue, ratio: h.ratio, pass: h.pass },
      ]),
    ),
  );
  console.log(`written: ${file}`);
}

const clientConfig = process.env[CLIENT_ENV];
if (clientConfig) {
  const { url, count } = JSON.parse(clientConfig) as { url: string; count: number };
  clientProcess(url, count).catch((err: unknown) => {
    process.send?.({ type: 'error', message: String(err) } satisfies ClientMessage);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    for (const c of spawned) c.kill('SIGKILL');
    process.exit(1);
  });
}
