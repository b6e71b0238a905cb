// `npm run bench:telemetry`: GET /v1/satellite/{name}/telemetry over a year of a busy satellite.
// The store is what the ingest and retention leave after a year: the last TELEMETRY_RAW_RETENTION
// days of raw samples written through the ingest's own storeTelemetrySamples (fields, samples,
// hour and day rollups in one transaction per batch), and the earlier days as the hour and day
// rollups retention keeps, aggregated from generated samples at the same rate. The server runs as
// its own process (main.ts, SQLite). Each range (1 day, 7 days, 30 days, 1 year) is read with
// autocannon: "repeated" asks the same window again and again, "fresh" a different window on
// every request. Both are measured on a quiet server and again while the ingest benchmark's load
// process (ingest-load.ts, its own process) publishes `tele/rx` at --rate receptions/s (every
// frame a new decoded packet whose numbers go to the series). Besides latency, the server's CPU
// time per request is read from /proc (load-independent). The ceiling, in the same run and way,
// is GET /healthz of the same process. Writes bench/results/telemetry.json.
//   npm run bench:telemetry -- [--per-day 5000] [--fields 10] [--seconds 5] [--connections 10]
//                              [--stations 100] [--rate 1000]
//                              [--profile-server DIR]  (V8 CPU profiles of the server, one per phase)
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pino } from 'pino';
import {
  TELEMETRY_RANGES,
  TELEMETRY_RAW_RETENTION_DAYS,
  type TelemetryRange,
} from '@tinygs/contracts';
import { createServer, loadConfig, storeTelemetrySamples } from '@tinygs/server/testing';
import {
  type ControlMessage,
  type LoadConfig,
  type LoadMessage,
  type LoadStation,
} from './ingest-protocol';
import { BENCH_SATELLITE, BENCH_SECRET, seedBenchNetwork } from './ingest-seed';
import { round, sleep, writeResult, type Headline } from './machine';
import {
  cpuProfileArgs,
  freePort,
  spawnLoadProcess,
  startTsProcess,
  stopProcess,
  waitHealthy,
} from './processes';

const { values } = parseArgs({
  options: {
    'per-day': { type: 'string', default: '5000' },
    fields: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    stations: { type: 'string', default: '100' },
    rate: { type: 'string', default: '1000' },
    'profile-server': { type: 'string' },
  },
});
const PROFILE = cpuProfileArgs(values['profile-server']);
const PER_DAY = Number(values['per-day']);
const FIELDS = Number(values.fields);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const STATIONS = Number(values.stations);
const RATE = Number(values.rate);
const CLOCK_TICK_MS = 1000 / 100; // USER_HZ on Linux
const SATELLITE = 'Norbi';
const FIELD = 'payload.batteryVolts';
const GOAL_P99_MS = 50;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const YEAR_DAYS = 365;
const BATCH_PACKETS = 250;

const load1m = () => round(loadavg()[0] ?? 0, 2);

/** A battery voltage (mV) and further fields, as a satellite might send them. */
function fieldValues(at: number): number[] {
  const orbit = Math.sin((at / (95 * 60_000)) * 2 * Math.PI);
  const season = Math.sin((at / (YEAR_DAYS * DAY)) * 2 * Math.PI);
  return Array.from({ length: FIELDS }, (_, i) =>
    i === 0
      ? Math.round(3900 + 150 * orbit + 50 * season + Math.random() * 20)
      : Math.round(100 * Math.sin(at / (i * 600_000)) + i),
  );
}
const fieldName = (i: number) => (i === 0 ? FIELD : `payload.field${i}`);

type Db = Awaited<ReturnType<typeof createServer>>['ctx']['database']['db'];

/** The raw days through the ingest's own writes, in batches like the ingest's. */
async function seedRaw(db: Db, from: number, to: number): Promise<number> {
  const step = DAY / PER_DAY;
  let written = 0;
  for (let t = from; t < to;) {
    const samples: { satellite: string; field: string; at: number; value: number }[] = [];
    for (let n = 0; n < BATCH_PACKETS && t < to; n += 1, t += step) {
      const at = Math.round(t);
      const v = fieldValues(at);
      for (let i = 0; i < FIELDS; i += 1)
        samples.push({ satellite: SATELLITE, field: fieldName(i), at, value: v[i] ?? 0 });
    }
    await db.transaction().execute((trx) => storeTelemetrySamples(trx, samples));
    written += samples.length;
  }
  return written;
}

/** The earlier days as retention leaves them: hour and day rollups of the same rate. */
async function seedRollups(db: Db, from: number, to: number): Promise<number> {
  const step = DAY / PER_DAY;
  type Agg = { min: number; max: number; sum: number; count: number };
  const rows: object[] = [];
  let samples = 0;
  for (let day = from; day < to; day += DAY) {
    const dayAgg: Agg[] = [];
    for (let hour = day; hour < day + DAY; hour += HOUR) {
      const agg: Agg[] = [];
      for (let t = hour; t < hour + HOUR; t += step) {
        const v = fieldValues(Math.round(t));
        samples += 1;
        for (let i = 0; i < FIELDS; i += 1) {
          const x = v[i] ?? 0;
          for (const list of [agg, dayAgg]) {
            const a = list[i];
            if (a) {
              a.min = Math.min(a.min, x);
              a.max = Math.max(a.max, x);
              a.sum += x;
              a.count += 1;
            } else list[i] = { min: x, max: x, sum: x, count: 1 };
          }
        }
      }
      agg.forEach((a, i) =>
        rows.push({ satellite: SATELLITE, field: fieldName(i), bucket: 'hour', start: hour, ...a }),
      );
    }
    dayAgg.forEach((a, i) =>
      rows.push({ satellite: SATELLITE, field: fieldName(i), bucket: 'day', start: day, ...a }),
    );
  }
  for (let k = 0; k < rows.length; k += 500)
    await db
      .insertInto('telemetryRollups')
      .values(rows.slice(k, k + 500) as never)
      .execute();
  await db
    .updateTable('telemetryFields')
    .set((eb) => ({ firstAt: from, samples: eb('samples', '+', samples) }))
    .where('satellite', '=', SATELLITE)
    .execute();
  return rows.length;
}

interface Measured {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** the server process's CPU time (all threads) per request, from /proc */
  serverCpuMsPerRequest: number;
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

async function cannon(base: string, pid: number, path: () => string): Promise<Measured> {
  const ticks = cpuTicks(pid);
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  return {
    reqPerSec: round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.non2xx,
    serverCpuMsPerRequest: round(((cpuTicks(pid) - ticks) * CLOCK_TICK_MS) / r.requests.total, 2),
  };
}

async function packetsStored(base: string): Promise<number> {
  const s = (await (await fetch(`${base}/v1/statistics`)).json()) as { packets?: number };
  return Number(s.packets ?? 0);
}

interface PhaseResult {
  phase: 'quiet' | 'ingest';
  /** receptions per second the load process offered (0: none) */
  offeredPerSecond: number;
  /** packets stored per second while this phase's reads ran */
  packetsPerSecond: number;
  loadAverage1m: { before: number; after: number };
  healthz: Measured;
  ranges: { range: TelemetryRange; points: number; repeated: Measured; fresh: Measured }[];
}

/** The ingest load process (ingest-load.ts) publishing demo frames at RATE; resolves once it runs. */
async function startLoad(
  dir: string,
  mqttPort: number,
  base: string,
  stations: LoadStation[],
): Promise<ChildProcess> {
  const config: LoadConfig = {
    mode: 'ingest',
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    sseUrl: null,
    stations,
    rate: RATE,
    durationMs: 60 * 60_000,
    warmupMs: 0,
    drainMs: 0,
    satellite: BENCH_SATELLITE,
  };
  const child = spawnLoadProcess(config, join(dir, 'load.json'));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`load process exited (${code})`)));
    child.on('message', (m: LoadMessage) => {
      if (m.type === 'ready')
        void (async () => {
          const deadline = Date.now() + 60_000;
          while (Date.now() < deadline) {
            const s = (await (await fetch(`${base}/v1/statistics`)).json()) as { stations: number };
            if (s.stations >= stations.length) break;
            await sleep(500);
          }
          child.send({ type: 'go' } satisfies ControlMessage);
        })();
      else if (m.type === 'load-start') resolve();
    });
  });
  // The ingest in its stride.
  await sleep(5_000);
  return child;
}

async function phase(
  env: Record<string, string>,
  name: PhaseResult['phase'],
  stations: LoadStation[],
  newest: number,
): Promise<PhaseResult> {
  const port = await freePort();
  const mqttPort = await freePort();
  const server = startTsProcess([...PROFILE, 'apps/server/src/main.ts'], {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    SIMULATED_STATIONS: '0',
  });
  const pid = server.pid ?? 0;
  const base = `http://127.0.0.1:${port}`;
  let load: ChildProcess | null = null;
  try {
    await waitHealthy(`${base}/healthz`);
    if (name === 'ingest') load = await startLoad(env.DATA_DIR ?? '', mqttPort, base, stations);
    const before = load1m();
    const packets0 = await packetsStored(base);
    const t0 = Date.now();
    const healthz = await cannon(base, pid, () => '/healthz');
    const ranges: PhaseResult['ranges'] = [];
    for (const range of Object.keys(TELEMETRY_RANGES) as TelemetryRange[]) {
      const span = TELEMETRY_RANGES[range] * DAY;
      const url = (to: number) =>
        `/v1/satellite/${SATELLITE}/telemetry?field=${FIELD}&from=${to - span}&to=${to}`;
      const first = (await (await fetch(base + url(newest))).json()) as { t: unknown[] };
      const repeated = await cannon(base, pid, () => url(newest));
      // A different window each time, answered the same way: a day within the raw samples' days,
      // the longer ranges anywhere in the year (the year itself shifted by up to a day).
      const latest =
        range === '1d'
          ? (TELEMETRY_RAW_RETENTION_DAYS - 2) * DAY
          : range === '1y'
            ? DAY
            : YEAR_DAYS * DAY - span;
      const fresh = await cannon(base, pid, () => url(newest - Math.floor(Math.random() * latest)));
      ranges.push({ range, points: first.t.length, repeated, fresh });
      console.log(
        `${name} ${range}: ${first.t.length} points, repeated p99 ${repeated.p99Ms} ms (${repeated.reqPerSec}/s, ${repeated.serverCpuMsPerRequest} ms CPU), fresh p99 ${fresh.p99Ms} ms (${fresh.reqPerSec}/s, ${fresh.serverCpuMsPerRequest} ms CPU)`,
      );
    }
    const packetsPerSecond = round(
      ((await packetsStored(base)) - packets0) / ((Date.now() - t0) / 1000),
    );
    return {
      phase: name,
      offeredPerSecond: name === 'ingest' ? RATE : 0,
      packetsPerSecond,
      loadAverage1m: { before, after: load1m() },
      healthz,
      ranges,
    };
  } finally {
    if (load) await stopProcess(load);
    await stopProcess(server);
  }
}

async function main(): Promise<void> {
  const loadBefore = load1m();
  const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-bench-telemetry-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    SERVER_SECRET: BENCH_SECRET,
    READ_RATE_PER_MINUTE: '10000000',
  };
  try {
    // Schema and catalogue through the server's own start-up; then the series.
    const setup = await createServer(loadConfig({ ...env, MQTT_PORT: '0' }), {
      log: pino({ level: 'silent' }),
      parts: [],
    });
    const db = setup.ctx.database.db;
    const stations = await seedBenchNetwork(db, STATIONS, 'Telemetry');
    const newest = Math.floor(Date.now() / HOUR) * HOUR;
    const rawFrom = newest - TELEMETRY_RAW_RETENTION_DAYS * DAY;
    const yearFrom = Math.floor((newest - YEAR_DAYS * DAY) / DAY) * DAY;
    let t0 = Date.now();
    const raw = await seedRaw(db, rawFrom, newest);
    const rawSeconds = round((Date.now() - t0) / 1000);
    console.log(
      `seeded ${raw.toLocaleString()} raw samples through the ingest's writes in ${rawSeconds} s`,
    );
    t0 = Date.now();
    const rollupRows = await seedRollups(db, yearFrom, Math.floor(rawFrom / DAY) * DAY);
    console.log(
      `seeded ${rollupRows.toLocaleString()} older rollups in ${round((Date.now() - t0) / 1000)} s`,
    );
    await setup.close();

    const phases = [
      await phase(env, 'quiet', stations, newest),
      await phase(env, 'ingest', stations, newest),
    ];
    const headlines: Headline[] = phases.flatMap((p) =>
      p.ranges.flatMap((r) =>
        (['repeated', 'fresh'] as const).map((kind) => ({
          benchmark: `Telemetry ${r.range} of a busy satellite (${r.points} points), ${kind}${p.phase === 'ingest' ? `, ingest running (${p.packetsPerSecond} packets/s stored)` : ''}: p99 (ms)`,
          figure: 'ms',
          value: r[kind].p99Ms,
          goal: `< ${GOAL_P99_MS}`,
          ceiling: 'GET /healthz p99, same process and load (ms)',
          ceilingValue: p.healthz.p99Ms,
          ratio: round(p.healthz.p99Ms / Math.max(r[kind].p99Ms, 1), 3),
          pass: r[kind].p99Ms < GOAL_P99_MS && r[kind].errors === 0,
        })),
      ),
    );
    const file = writeResult('telemetry', {
      satellite: SATELLITE,
      field: FIELD,
      packetsPerDay: PER_DAY,
      ingestRate: RATE,
      fields: FIELDS,
      rawSamples: raw,
      rawSeedSeconds: rawSeconds,
      rawSamplesPerSecond: round(raw / rawSeconds),
      rollupRows,
      connections: CONNECTIONS,
      seconds: SECONDS,
      loadAverage1m: { before: loadBefore, after: load1m() },
      phases,
      headlines,
    });
    console.log(`wrote ${file}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
