// `npm run bench:ingest`: 1,000 MQTT station connections send `tele/rx` into the real server on
// SQLite. Reports receptions stored per second over the load window, publish -> SSE new-packet
// latency, and, in the same run, the raw pass-through rate of the same broker library with no
// ingest (publish -> subscriber) as the ceiling. The ceiling is a closed-loop maximum, so the ratio
// is taken against the server's own closed-loop maximum (the capacity phase: at most
// --capacity-window receptions published and not yet announced as new-packet); the stored rate of
// the fixed-rate window can never exceed the offered --rate. Writes bench/results/ingest.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Aedes } from 'aedes';
import { pino } from 'pino';
import {
  loadConfig,
  BROKER_TUNING,
  createNetworkPart,
  readCounters,
  createServer,
} from '@tinygs/server/testing';
import {
  BENCH_LOAD_ENV,
  type ControlMessage,
  type LoadConfig,
  type LoadMessage,
  type LoadResult,
} from './ingest-protocol';
import {
  BENCH_SATELLITE as SATELLITE,
  BENCH_SECRET as SECRET,
  seedBenchNetwork,
} from './ingest-seed';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '5500' },
    seconds: { type: 'string', default: '60' },
    // raw phase: messages published but not yet delivered to the subscriber, at most
    'raw-window': { type: 'string', default: '2000' },
    'raw-seconds': { type: 'string', default: '20' },
    'flush-ms': { type: 'string', default: '50' },
    // capacity phase (closed loop); 0 skips it
    'capacity-seconds': { type: 'string', default: '20' },
    'capacity-window': { type: 'string', default: '4000' },
  },
});
const STATIONS = Number(values.stations);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const RAW_WINDOW = Number(values['raw-window']);
const RAW_SECONDS = Number(values['raw-seconds']);
const CAPACITY_SECONDS = Number(values['capacity-seconds']);
const CAPACITY_WINDOW = Number(values['capacity-window']);

interface Observed {
  result: LoadResult;
  windowMs: number;
  storedInWindow: number;
}

/** Runs one load process; `onReady` decides when it may start, `sample` reads the stored count. */
function runLoad(
  config: LoadConfig,
  dir: string,
  onReady: () => Promise<void>,
  sample: () => number,
): Promise<Observed> {
  const file = join(dir, `load-${config.mode}.json`);
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'ingest-load.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [BENCH_LOAD_ENV]: file },
  });
  let startedAt = 0;
  let startStored = 0;
  let windowMs = 0;
  let storedInWindow = 0;
  return new Promise((resolve, reject) => {
    child.on('message', (m: LoadMessage) => {
      if (m.type === 'ready') {
        onReady().then(
          () => child.send({ type: 'go' } satisfies ControlMessage),
          (err: unknown) => reject(err instanceof Error ? err : new Error(String(err))),
        );
      } else if (m.type === 'load-start') {
        startedAt = performance.now();
        startStored = sample();
      } else if (m.type === 'load-end') {
        windowMs = performance.now() - startedAt;
        storedInWindow = sample() - startStored;
      } else if (m.type === 'result') {
        resolve({ result: m.result, windowMs, storedInWindow });
      }
    });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load process (${config.mode}) exited with ${code}`));
    });
  });
}

/** The same broker library and tuning as the server's, without authentication or ingest. */
function rawBroker() {
  return new Promise<{ port: number; close(): Promise<void>; aedes: Aedes }>((resolve) => {
    void Aedes.createBroker({ ...BROKER_TUNING }).then((aedes) => {
      const server = createNetServer(aedes.handle);
      server.listen(0, '127.0.0.1', () => {
        const addr = server.address();
        resolve({
          port: typeof addr === 'object' && addr ? addr.port : 0,
          aedes,
          close: () =>
            new Promise<void>((done) => {
              aedes.close(() => server.close(() => done()));
            }),
        });
      });
    });
  });
}

async function main(): Promise<void> {
  const loadStart = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-bench-ingest-'));
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'warn',
    SERVER_SECRET: SECRET,
    // The load is far above any station's real rate: it measures the pipeline, not the limits.
    MQTT_RX_PER_SECOND: '100000',
  });
  const server = await createServer(config, {
    log: pino({ level: 'warn' }),
    parts: [createNetworkPart({ flushIntervalMs: Number(values['flush-ms']) })],
  });
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    const httpUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const db = server.ctx.database.db;
    const network = server.ctx.services.network;
    if (!network) throw new Error('network part not running');

    const stations = await seedBenchNetwork(db, STATIONS, 'Bench');
    await network.catalogue.refresh();
    const base = { stations, warmupMs: 5_000, drainMs: 30_000, satellite: SATELLITE };

    let rawRun: Observed | null = null;
    if (RAW_SECONDS > 0) {
      console.log(
        `raw broker pass-through: ${STATIONS} connections, ${RAW_SECONDS} s, as fast as it delivers ...`,
      );
      const raw = await rawBroker();
      rawRun = await runLoad(
        {
          ...base,
          mode: 'raw',
          mqttUrl: `mqtt://127.0.0.1:${raw.port}`,
          sseUrl: null,
          rate: RAW_WINDOW,
          durationMs: RAW_SECONDS * 1000,
        },
        dir,
        async () => undefined,
        () => 0,
      );
      await raw.close();
    }
    const rawRate = rawRun ? rawRun.result.receivedInWindow / (rawRun.windowMs / 1000) : Number.NaN;

    const ingestConfig = {
      ...base,
      mode: 'ingest' as const,
      mqttUrl: `mqtt://127.0.0.1:${network.mqtt.port}`,
      sseUrl: `${httpUrl}/sse/events`,
    };
    const allOnline = async () => {
      // Every station's welcome must be stored before its receptions count.
      const deadline = Date.now() + 60_000;
      while ((await readCounters(db)).stations < STATIONS) {
        if (Date.now() > deadline) throw new Error('stations did not all come online');
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const storedSoFar = () => network.metrics.receptionsStored;

    console.log(`ingest: ${STATIONS} stations, ${SECONDS} s at ${RATE} receptions/s ...`);
    const ingestRun = await runLoad(
      { ...ingestConfig, rate: RATE, durationMs: SECONDS * 1000 },
      dir,
      allOnline,
      storedSoFar,
    );
    await network.flush();
    const slowestBatchMs = network.metrics.maxBatchMs;

    let capacityRun: Observed | null = null;
    if (CAPACITY_SECONDS > 0) {
      console.log(
        `ingest capacity: ${STATIONS} stations, ${CAPACITY_SECONDS} s, at most ${CAPACITY_WINDOW} receptions not yet announced ...`,
      );
      capacityRun = await runLoad(
        {
          ...ingestConfig,
          rate: CAPACITY_WINDOW,
          closedLoop: true,
          counterStart: 1_000_000_000,
          durationMs: CAPACITY_SECONDS * 1000,
        },
        dir,
        allOnline,
        storedSoFar,
      );
    }
    const capacityRate = capacityRun
      ? capacityRun.storedInWindow / (capacityRun.windowMs / 1000)
      : Number.NaN;
    await network.flush();
    const storedRows = await db
      .selectFrom('receptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const storedRate = ingestRun.storedInWindow / (ingestRun.windowMs / 1000);
    const publishedTotal = ingestRun.result.sent + (capacityRun?.result.sent ?? 0);
    const latency = ingestRun.result.latencyMs;
    const report = {
      date: new Date().toISOString(),
      // Other work on the machine shows in the latency tail; the load average says how much there was.
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        loadAverage1m: loadStart,
        loadAverage1mAfter: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      },
      storage: 'sqlite',
      stations: STATIONS,
      ingest: {
        targetRate: RATE,
        seconds: Math.round(ingestRun.windowMs / 100) / 10,
        published: ingestRun.result.sent,
        storedInWindow: ingestRun.storedInWindow,
        storedPerSecond: Math.round(storedRate),
        // every reception of both ingest phases
        storedTotal: Number(storedRows.n),
        publishedTotal,
        sseEvents: ingestRun.result.receivedTotal,
        latencyMs: latency,
        backpressureSkips: ingestRun.result.backpressureSkips,
        slowestBatchMs: Math.round(slowestBatchMs),
        dropped: network.metrics.snapshot().dropped,
      },
      rawBroker: rawRun && {
        maxInFlight: RAW_WINDOW,
        seconds: Math.round(rawRun.windowMs / 100) / 10,
        published: rawRun.result.sent,
        receivedPerSecond: Math.round(rawRate),
      },
      capacity: capacityRun && {
        maxNotYetAnnounced: CAPACITY_WINDOW,
        seconds: Math.round(capacityRun.windowMs / 100) / 10,
        published: capacityRun.result.sent,
        storedPerSecond: Math.round(capacityRate),
        // queueing delay at saturation, not the latency figure
        latencyMs: capacityRun.result.latencyMs,
      },
      // closed-loop ingest maximum / closed-loop broker maximum
      ratioToRaw: Math.round((capacityRate / rawRate) * 1000) / 1000,
      // the fixed-rate window's stored rate / raw: bounded by --rate / raw
      ratioToRawAtTargetRate: Math.round((storedRate / rawRate) * 1000) / 1000,
      goals: {
        storedPerSecondAtLeast5000: storedRate >= 5000,
        p99Below250ms: (latency?.p99 ?? Infinity) < 250,
        atLeastThirdOfRaw: capacityRate >= rawRate / 3,
      },
    };
    const resultsDir = join(here, '..', 'results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'ingest.json'), JSON.stringify(report, null, 2) + '\n');
    console.table({
      'receptions stored /s': { value: report.ingest.storedPerSecond, goal: '>= 5000' },
      'publish -> SSE p50 ms': { value: latency?.p50, goal: '' },
      'publish -> SSE p99 ms': { value: latency?.p99, goal: '< 250' },
      'raw broker pass-through /s': { value: report.rawBroker?.receivedPerSecond, goal: 'ceiling' },
      'ingest capacity stored /s': { value: report.capacity?.storedPerSecond, goal: '' },
      'capacity / raw': { value: report.ratioToRaw, goal: '>= 0.333' },
      [`stored at ${RATE}/s / raw`]: { value: report.ratioToRawAtTargetRate, goal: '' },
      'published / stored total': {
        value: `${report.ingest.publishedTotal} / ${report.ingest.storedTotal}`,
        goal: 'equal',
      },
    });
    console.log(`written: ${join(resultsDir, 'ingest.json')}`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
