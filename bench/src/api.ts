// `npm run bench:api`: the public read API of the real server process under 50 concurrent clients,
// with 10,000 stations and 100,000 then 1,000,000 packets (heard by 1-20 stations each, ten on
// average) written by a fast generator, while the network is live: 200 station connections
// publish 1,000 receptions/s over MQTT (each frame heard by 1-20 of them, so the server merges
// them), and every stored packet and station change drops the cached answers it touches. Each call is measured against, in the same run, the same bytes answered from memory
// by a bare node:http process over the same connections (the ceiling; the same bytes read from a
// file per request are measured too, as a second column). Clients send the
// Accept-Encoding of a browser. Packet and station pages rotate over 10,000 different ids (each built
// from the database the first time, then kept until it changes); the station list and the packet
// lists are few documents the server keeps built. Query plans of every read are checked for full
// scans (and on PostgreSQL for the month partitions they read). Writes bench/results/api.json
// (api-postgres.json with --postgres).
//   npm run api -w bench -- [--postgres] [--sizes 100000,1000000] [--seconds 10] [--connections 50]
//     [--ingest-rate 1000] [--live-stations 200]   (--ingest-rate 0: a still database)
//     [--routes '/v1/station/{id},/v1/packet/{id}']  (only those rows, e.g. to profile the server)
//     [--profile-server DIR]  (the server's V8 CPU profile, node --cpu-prof, into DIR)
//     [--out NAME]  (writes bench/results/NAME.json instead)
// --plans-only seeds and checks the query plans without serving (bench/results/api-plans[-postgres]
// -LARGEST.json); --months N spreads the packets over N months (default one packet a second);
// --from-unpartitioned (PostgreSQL) seeds the tables as they were before migration 0016 and times
// that migration on them.
// (the root script `bench:api` passes no arguments through)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import {
  loadConfig,
  createServer,
  openDatabase,
  partitionMigration,
  createMonthPartition,
  monthsBetween,
  partitionMonth,
  type Database,
} from '@tinygs/server/testing';
import { explainReads, planFailures, type QueryPlan } from './api-plans';
import {
  packetIdOf,
  seedPackets,
  seedStations,
  stationIdOf,
  supportedSatellites,
  timeOf,
  type SeedPlan,
  type SeedTarget,
} from './api-seed';
import {
  type ControlMessage,
  type LoadConfig,
  type LoadMessage,
  type LoadStation,
} from './ingest-protocol';
import { BENCH_SATELLITE, BENCH_SECRET, seedBenchNetwork } from './ingest-seed';
import { GOALS, ROUTE_GOALS, goalOf, meetsGoal, type Goal } from './api-goals';
import { ACCEPT_ENCODING, cannon, ingestTotals, snapshot, type Measured } from './http-load';
import {
  cpuMs,
  cpuProfileArgs,
  freePort,
  spawnLoadProcess,
  startTsProcess,
  stopProcess,
  waitHealthy,
} from './processes';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    stations: { type: 'string', default: '10000' },
    sizes: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    ids: { type: 'string', default: '10000' },
    'ingest-rate': { type: 'string', default: '1000' },
    'live-stations': { type: 'string', default: '200' },
    'plans-only': { type: 'boolean', default: false },
    out: { type: 'string' },
    months: { type: 'string' },
    'from-unpartitioned': { type: 'boolean', default: false },
    routes: { type: 'string' },
    'profile-server': { type: 'string' },
  },
});
const POSTGRES = values.postgres === true;
const STATIONS = Number(values.stations);
// PostgreSQL is seeded over the wire; its default stops at 100,000 packets to keep the run short.
const SIZES = (values.sizes ?? (POSTGRES ? '100000' : '100000,1000000')).split(',').map(Number);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const IDS = Number(values.ids);
const INGEST_RATE = Number(values['ingest-rate']);
const LIVE_STATIONS = Number(values['live-stations']);
/** Stations per frame of the live load (uniform): ten on average, like the captured traffic. */
const LIVE_COPIES = { min: 1, max: 20 };
const PLANS_ONLY = values['plans-only'] === true;
/** The results file's name (bench/results/NAME.json) instead of api[-postgres]. */
const OUT = values.out;
if (OUT !== undefined && !/^[\w-]{1,64}$/.test(OUT)) throw new Error(`--out ${OUT}: a file name`);
const MONTHS = values.months ? Number(values.months) : null;
/** Only these routes (names as in the table, comma-separated), e.g. to profile one of them. */
const ONLY_ROUTES = values.routes?.split(',').map((r) => r.trim()) ?? null;
/** A directory for the server process's V8 CPU profile (node --cpu-prof), written as it stops. */
const PROFILE_DIR = values['profile-server'] ?? null;
const FROM_UNPARTITIONED = POSTGRES && values['from-unpartitioned'] === true;
const USERS = Math.max(1, Math.floor(STATIONS / 10));
const SECRET = BENCH_SECRET;

async function prepareTarget(
  dataDir: string,
): Promise<{ target: SeedTarget; env: Record<string, string>; drop: () => Promise<void> }> {
  if (!POSTGRES)
    return {
      target: { kind: 'sqlite', file: join(dataDir, 'tinygs.db') },
      env: {},
      drop: async () => undefined,
    };
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_api_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    target: { kind: 'postgres', url: url.toString() },
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

interface Row extends Measured {
  packets: number;
  route: string;
  distinctUrls: number;
  bytes: number;
  staticFileReqPerSec: number;
  staticFileP99Ms: number;
  memoryReqPerSec: number;
  memoryP99Ms: number;
  /** against the from-memory ceiling */
  ratio: number;
  /**
   * CPU time per answered request, in microseconds: the server process (its reads, less what the
   * live ingest cost it per second while the ceilings were measured) and the from-memory ceiling.
   * Less sensitive to other load on the machine than requests per second.
   */
  serverCpuUsPerRequest: number;
  memoryCpuUsPerRequest: number;
  ratioToStaticFile: number;
  goal: Goal;
  meetsGoals: boolean;
}

/** The live network during the reads: station connections publishing over MQTT until stopped. */
async function startLiveIngest(
  mqttPort: number,
  stations: LoadStation[],
  dir: string,
  counterStart: number,
): Promise<{ stop(): void }> {
  const config: LoadConfig = {
    mode: 'ingest',
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    sseUrl: null,
    stations,
    rate: INGEST_RATE,
    copies: LIVE_COPIES,
    counterStart,
    durationMs: 24 * 3_600_000,
    warmupMs: 0,
    drainMs: 0,
    satellite: BENCH_SATELLITE,
  };
  const child = spawnLoadProcess(config, join(dir, `live-load-${counterStart}.json`));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: LoadMessage) => {
      if (m.type === 'ready') child.send({ type: 'go' } satisfies ControlMessage);
      else if (m.type === 'load-start') resolve();
    });
    child.once('exit', (code) => reject(new Error(`live load exited with ${code}`)));
  });
  return { stop: () => void child.kill('SIGKILL') };
}

interface LiveIngest {
  packets: number;
  offeredReceptionsPerSecond: number;
  storedReceptionsPerSecond: number;
  storedPacketsPerSecond: number;
  dropped: number;
  seconds: number;
}

/** Migration 0016 on the tables seeded in their earlier shape. */
async function migrateUnpartitioned(env: Record<string, string>): Promise<void> {
  const database = openDatabase(loadConfig(env).database);
  try {
    // In one transaction, as migrating runs it.
    await database.db.transaction().execute((trx) => partitionMigration.up<Database>(trx));
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const loadBefore = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-bench-api-'));
  const { target, env: dbEnv, drop } = await prepareTarget(dataDir);
  const env = {
    DATA_DIR: dataDir,
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    MQTT_PORT: '0',
    SERVER_SECRET: SECRET,
    ...dbEnv,
  };
  const results: Row[] = [];
  const live: LiveIngest[] = [];
  const plans: Record<number, QueryPlan[]> = {};
  const seedSeconds: Record<number, number> = {};
  const migrationSeconds: Record<number, number> = {};
  try {
    // Schema and catalogue through the server's own start-up; then rows straight into storage.
    const setup = await createServer(loadConfig(env), {
      log: pino({ level: 'silent' }),
      parts: [],
    });
    const satellites = await supportedSatellites(setup.ctx.database.db);
    // The live load's satellite and owners (their stations appear with their first welcome).
    const liveStations =
      INGEST_RATE > 0 && !PLANS_ONLY
        ? await seedBenchNetwork(setup.ctx.database.db, LIVE_STATIONS, 'Live')
        : [];
    const largest = Math.max(...SIZES);
    const stepMs = MONTHS ? Math.floor((MONTHS * 30.44 * 86_400_000) / largest) : 1000;
    const plan: SeedPlan = {
      users: USERS,
      stations: STATIONS,
      satellites,
      startMs: Date.now() - largest * stepMs,
      stepMs,
    };
    if (FROM_UNPARTITIONED) await partitionMigration.down(setup.ctx.database.db);
    else if (POSTGRES)
      // The months the partition job would have created while these packets arrived.
      for (const month of monthsBetween(partitionMonth(plan.startMs), partitionMonth(Date.now())))
        for (const table of ['packets', 'receptions'] as const)
          await createMonthPartition(setup.ctx.database.db, table, month);
    await setup.close();
    let t0 = Date.now();
    await seedStations(target, plan, SECRET);
    console.log(
      `seeded ${USERS.toLocaleString()} users and ${STATIONS.toLocaleString()} stations in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    let filled = 0;
    for (const size of SIZES) {
      t0 = Date.now();
      const phases = await seedPackets(target, plan, filled, size);
      filled = size;
      seedSeconds[size] = Math.round((Date.now() - t0) / 100) / 10;
      console.log(
        `seeded ${size.toLocaleString()} packets in ${seedSeconds[size]} s` +
          (phases
            ? ` (rows ${phases.rowsS.toFixed(1)} s, keys and indexes ${phases.indexesS.toFixed(1)} s)`
            : ''),
      );
      if (FROM_UNPARTITIONED && Object.keys(migrationSeconds).length === 0) {
        t0 = Date.now();
        await migrateUnpartitioned(env);
        migrationSeconds[size] = Math.round((Date.now() - t0) / 100) / 10;
        console.log(
          `migration 0016 on ${size.toLocaleString()} packets: ${migrationSeconds[size]} s`,
        );
      }
      plans[size] = await explainReads(target, {
        satellite: satellites[0] as string,
        stationId: stationIdOf(7, USERS),
        packetId: packetIdOf(size >> 1, plan),
        serverTime: timeOf(size >> 1, plan),
      });
      for (const p of plans[size] ?? [])
        if (p.partitions.length > 0)
          console.log(
            `${p.call}: reads ${p.partitions.length} partitions, ${p.executionMs ?? '?'} ms`,
          );
      for (const failure of planFailures(plans[size] ?? [])) console.log(failure);
      if (PLANS_ONLY) continue;

      const port = await freePort();
      const mqttPort = await freePort();
      const server = startTsProcess([...cpuProfileArgs(PROFILE_DIR), 'apps/server/src/main.ts'], {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        MQTT_PORT: String(mqttPort),
        MQTT_HOST: '127.0.0.1',
        // The live load's stations share one address and send far above a real station's rate.
        MQTT_RX_PER_SECOND: '1000',
        MQTT_MAX_CONNECTIONS_PER_ADDRESS: String(LIVE_STATIONS + 10),
      });
      const base = `http://127.0.0.1:${port}`;
      await waitHealthy(`${base}/healthz`);
      const spread = (n: number, of: number) =>
        Array.from({ length: Math.min(n, of) }, (_, k) => Math.floor((k * of) / Math.min(n, of)));
      const allRoutes: Record<string, string[]> = {
        '/v1/stations': ['/v1/stations'],
        '/v2/packets': ['/v2/packets'],
        '/v2/packets?satellite=': satellites.map(
          (s) => `/v2/packets?satellite=${encodeURIComponent(s)}`,
        ),
        '/v1/packet/{id}': spread(IDS, size).map((i) => `/v1/packet/${packetIdOf(i, plan)}`),
        '/v1/station/{id}': spread(IDS, STATIONS).map(
          (i) => `/v1/station/${encodeURIComponent(stationIdOf(i, USERS))}`,
        ),
      };
      const routes = ONLY_ROUTES
        ? Object.fromEntries(
            Object.entries(allRoutes).filter(([name]) => ONLY_ROUTES.includes(name)),
          )
        : allRoutes;

      // The same bytes as static files, fetched before the measured runs.
      const { manifestFile, bytesOf } = await snapshot(
        base,
        routes,
        join(dataDir, `static-${size}`),
      );
      const diskPort = await freePort();
      const memoryPort = await freePort();
      const disk = startTsProcess(
        ['bench/src/api-ceiling.ts', manifestFile, String(diskPort), 'disk'],
        {},
      );
      const memory = startTsProcess(
        ['bench/src/api-ceiling.ts', manifestFile, String(memoryPort), 'memory'],
        {},
      );
      await waitHealthy(`http://127.0.0.1:${diskPort}/`);
      await waitHealthy(`http://127.0.0.1:${memoryPort}/`);

      const ingest =
        INGEST_RATE > 0 ? await startLiveIngest(mqttPort, liveStations, dataDir, size * 10) : null;
      const liveFrom = await ingestTotals(base);
      const liveStarted = performance.now();

      for (const [name, paths] of Object.entries(routes)) {
        await cannon(base, paths, { connections: CONNECTIONS, seconds: 2 }); // warm-up: JIT, SQLite page cache
        const pid = server.pid ?? 0;
        let cpu = cpuMs(pid);
        let t = performance.now();
        const api = await cannon(base, paths, { connections: CONNECTIONS, seconds: SECONDS });
        const apiCpuMs = cpuMs(pid) - cpu;
        const apiMs = performance.now() - t;
        // Meanwhile the server only ingests: its CPU time per ms for that.
        cpu = cpuMs(pid);
        t = performance.now();
        const file = await cannon(`http://127.0.0.1:${diskPort}`, paths, {
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
        const ingestCpuPerMs = (cpuMs(pid) - cpu) / (performance.now() - t);
        const memCpu = cpuMs(memory.pid ?? 0);
        const mem = await cannon(`http://127.0.0.1:${memoryPort}`, paths, {
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
        const memCpuMs = cpuMs(memory.pid ?? 0) - memCpu;
        const ratio = api.reqPerSec / mem.reqPerSec;
        const row: Row = {
          packets: size,
          route: name,
          distinctUrls: paths.length,
          bytes: bytesOf[name] ?? 0,
          ...api,
          staticFileReqPerSec: file.reqPerSec,
          staticFileP99Ms: file.p99Ms,
          memoryReqPerSec: mem.reqPerSec,
          memoryP99Ms: mem.p99Ms,
          ratio,
          ratioToStaticFile: api.reqPerSec / file.reqPerSec,
          serverCpuUsPerRequest: Math.round(
            (1000 * Math.max(0, apiCpuMs - ingestCpuPerMs * apiMs)) / Math.max(1, api.requests),
          ),
          memoryCpuUsPerRequest: Math.round((1000 * memCpuMs) / Math.max(1, mem.requests)),
          goal: goalOf(name),
          meetsGoals: meetsGoal(goalOf(name), api, ratio),
        };
        results.push(row);
        console.log(
          `${size.toLocaleString().padStart(9)}  ${name.padEnd(24)} ${String(Math.round(api.reqPerSec)).padStart(6)} req/s  p50 ${String(api.p50Ms).padStart(3)} ms  p99 ${String(api.p99Ms).padStart(3)} ms  static file ${String(Math.round(file.reqPerSec)).padStart(6)} req/s (p99 ${file.p99Ms} ms)  memory ${String(Math.round(mem.reqPerSec)).padStart(6)}  ratio ${ratio.toFixed(2)}  cpu/req ${row.serverCpuUsPerRequest} us (ceiling ${row.memoryCpuUsPerRequest})  ${row.meetsGoals ? 'ok' : 'MISSED'}  errors ${api.errors}`,
        );
      }
      const liveTo = await ingestTotals(base);
      const liveSeconds = (performance.now() - liveStarted) / 1000;
      ingest?.stop();
      const during: LiveIngest = {
        packets: size,
        offeredReceptionsPerSecond: INGEST_RATE,
        storedReceptionsPerSecond: (liveTo.receptions - liveFrom.receptions) / liveSeconds,
        storedPacketsPerSecond: (liveTo.packets - liveFrom.packets) / liveSeconds,
        dropped: liveTo.dropped - liveFrom.dropped,
        seconds: Math.round(liveSeconds),
      };
      live.push(during);
      console.log(
        `live ingest during the reads: ${Math.round(during.storedReceptionsPerSecond)} receptions/s stored of ${INGEST_RATE} offered, ${Math.round(during.storedPacketsPerSecond)} packets/s, ${during.dropped} dropped`,
      );
      await Promise.all([stopProcess(disk), stopProcess(memory), stopProcess(server)]);
    }
  } finally {
    await drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log(
    `\n${'packets'.padStart(9)}  ${'route'.padEnd(24)} ${'req/s'.padStart(6)} ${'p50'.padStart(5)} ${'p99'.padStart(5)}  memory req/s  ratio  file req/s  cpu us/req (ceiling)  goals (${POSTGRES ? 'PostgreSQL' : 'SQLite'})`,
  );
  for (const r of results)
    console.log(
      `${r.packets.toLocaleString().padStart(9)}  ${r.route.padEnd(24)} ${String(Math.round(r.reqPerSec)).padStart(6)} ${String(r.p50Ms).padStart(5)} ${String(r.p99Ms).padStart(5)}  ${String(Math.round(r.memoryReqPerSec)).padStart(12)}  ${r.ratio.toFixed(2).padStart(5)}  ${String(Math.round(r.staticFileReqPerSec)).padStart(10)}  ${String(r.serverCpuUsPerRequest).padStart(10)} (${r.memoryCpuUsPerRequest})  ${r.meetsGoals ? 'met' : 'missed'}`,
    );

  const out = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? '',
      memGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    },
    loadAverage1m: { before: loadBefore, after: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
    durationS: Math.round((Date.now() - startedAt) / 1000),
    storage: POSTGRES ? 'postgres' : 'sqlite',
    stations: STATIONS,
    users: USERS,
    connections: CONNECTIONS,
    secondsPerRoute: SECONDS,
    liveIngest: {
      stations: INGEST_RATE > 0 ? LIVE_STATIONS : 0,
      stationsPerFrame: LIVE_COPIES,
      during: live,
    },
    seededReceptionsPerPacket: '1-20, 10.5 on average',
    acceptEncoding: ACCEPT_ENCODING,
    ceiling:
      'bare node:http process answering each URL with the bytes the API sent for it from memory (memory; the ratio), over the same connections in the same run; the same bytes streamed from a file per request (staticFile) for reference',
    goals: GOALS,
    routeGoals: ROUTE_GOALS,
    results,
    fullScans: Object.fromEntries(
      Object.entries(plans).map(([size, p]) => [
        size,
        p.filter((q) => q.fullScan).map((q) => q.call),
      ]),
    ),
    plansOnly: PLANS_ONLY,
    monthsOfPackets: MONTHS,
    seedSeconds,
    migrationSeconds,
    planFailures: Object.fromEntries(
      Object.entries(plans).map(([size, p]) => [size, planFailures(p)]),
    ),
    queryPlans: plans,
  };
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  writeFileSync(
    join(
      repo,
      // Plan checks at different scales are kept side by side: the file names the largest size.
      OUT !== undefined
        ? `bench/results/${OUT}.json`
        : `bench/results/${PLANS_ONLY ? 'api-plans' : 'api'}${POSTGRES ? '-postgres' : ''}${PLANS_ONLY ? `-${Math.max(...SIZES)}` : ''}.json`,
    ),
    `${JSON.stringify(out, null, 2)}\n`,
  );
  // The plan check is the point of --plans-only: a full scan or an unpruned packet read fails it.
  if (PLANS_ONLY && Object.values(plans).some((p) => planFailures(p).length > 0)) {
    console.log('query plan check FAILED');
    process.exitCode = 1;
  }
}

await main();
