// `npm run bench:cluster`: the production shape of scripts/cluster.mjs (Mosquitto 2 with its
// dynamic-security plugin, server instances on PostgreSQL and Redis, nginx in front), started with
// that script's own steps, with one and then two instances in the same run:
// - ingest: station connections (ingest-load.ts, each frame heard by 1-20 of them, so the copies of
//   one frame reach different instances and merge through Redis) publish `tele/rx` through
//   Mosquitto closed loop (at most --window receptions published and not yet stored or dropped,
//   from the instances' /metrics); the figure is receptions stored per second, summed over the
//   instances. Ceiling: the same load through the same Mosquitto to one plain subscriber (the
//   server's broker login, a share group of its own; at most --raw-window in flight), instances
//   stopped;
// - reads: autocannon through nginx on /v1/stations, /v2/packets, /v1/packet/{id} and
//   /v1/station/{id} (ids rotated), on the data the ingest stored. Ceiling: nginx in front of a bare
//   node:http process answering the same bytes from memory (api-ceiling.ts).
// CPU time per process (/proc) is sampled over every phase. A fresh PostgreSQL schema and Redis key
// prefix per run. Writes bench/results/cluster.json; exits non-zero when a phase fails.
//   npm run bench:cluster -- [--stations 1000] [--window 2000] [--seconds 20] [--raw-window 2000]
//     [--read-seconds 10] [--connections 50] [--copies 1-20] [--ids 1000]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig, openDatabase, serverBrokerPassword } from '@tinygs/server/testing';
import {
  cli,
  ensureTools,
  sharedEnv,
  start,
  startBroker,
  startInstance,
  startNginx,
  stop,
  stopAll,
} from '../../scripts/cluster.mjs';
import { cannon, ingestTotals, snapshot, type Measured } from './http-load';
import {
  type ControlMessage,
  type LoadConfig,
  type LoadMessage,
  type LoadResult,
} from './ingest-protocol';
import { BENCH_SATELLITE, BENCH_SECRET, seedBenchNetwork } from './ingest-seed';
import { machine, round, sleep, writeResult, type Headline } from './machine';
import { freePort, spawnLoadProcess, waitHealthy } from './processes';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '1000' },
    // ingest: receptions published and not yet stored (or dropped), at most
    window: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '20' },
    'raw-window': { type: 'string', default: '2000' },
    'read-seconds': { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    copies: { type: 'string', default: '1-20' },
    ids: { type: 'string', default: '1000' },
  },
});
const STATIONS = Number(values.stations);
const WINDOW = Number(values.window);
const SECONDS = Number(values.seconds);
const RAW_WINDOW = Number(values['raw-window']);
const READ_SECONDS = Number(values['read-seconds']);
const CONNECTIONS = Number(values.connections);
const [COPIES_MIN, COPIES_MAX] = values.copies.split('-').map(Number);
const COPIES = { min: COPIES_MIN ?? 1, max: COPIES_MAX ?? COPIES_MIN ?? 1 };
const IDS = Number(values.ids);

// ---- CPU time per process, from /proc (10-ms clock ticks) ----

function ticks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Every process of that name on the machine (PostgreSQL and Redis serve other work too). */
function pidsNamed(name: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Busy and total ticks of the whole machine (all cores). */
function machineTicks(): { busy: number; total: number } {
  const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
}

const pidList = (pid: number | undefined) => (pid ? [pid] : []);

type Groups = () => Record<string, number[]>;

/** Starts sampling; the returned function gives the cores used per group since (1 = one core). */
function cpuSince(groups: Groups): () => { cores: Record<string, number>; machineBusy: number } {
  const before = new Map<number, number>();
  for (const pids of Object.values(groups())) for (const p of pids) before.set(p, ticks(p));
  const m0 = machineTicks();
  const t0 = performance.now();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    const m1 = machineTicks();
    const cores: Record<string, number> = {};
    for (const [name, pids] of Object.entries(groups()))
      cores[name] = round(
        pids.reduce((sum, p) => sum + ticks(p) - (before.get(p) ?? 0), 0) / 100 / seconds,
        2,
      );
    // share of all cores busy: this benchmark and everything else on the machine
    return { cores, machineBusy: round((m1.busy - m0.busy) / (m1.total - m0.total), 2) };
  };
}

// ---- the load process ----

interface Totals {
  receptions: number;
  packets: number;
  dropped: number;
}

interface LoadRun {
  result: LoadResult;
  seconds: number;
  stored: number;
  packets: number;
  dropped: number;
  cores: Record<string, number>;
  machineBusy: number;
}

/**
 * One ingest-load.ts process. While it publishes, `totals` (the instances' stored and dropped
 * counts) is read every 200 ms and handed to it, so that it keeps at most `config.rate` receptions
 * published and not yet handled (closed loop); CPU is sampled over the same window.
 */
function runLoad(
  config: LoadConfig,
  file: string,
  onReady: () => Promise<void>,
  totals: () => Promise<Totals>,
  groups: Groups,
  onSpawn: (pid: number) => void,
): Promise<LoadRun> {
  const child = spawnLoadProcess(config, file);
  if (child.pid) onSpawn(child.pid);
  let t0 = 0;
  let from: Totals = { receptions: 0, packets: 0, dropped: 0 };
  let cpu: ReturnType<typeof cpuSince> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let window: Promise<Omit<LoadRun, 'result'>> | null = null;
  return new Promise((resolve, reject) => {
    const failed = (err: unknown) => {
      clearInterval(timer);
      child.kill('SIGKILL');
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    child.on('message', (m: LoadMessage) => {
      if (m.type === 'ready')
        onReady()
          .then(totals)
          .then((t) => {
            from = t;
            child.send({ type: 'go' } satisfies ControlMessage);
          }, failed);
      else if (m.type === 'load-start') {
        t0 = performance.now();
        cpu = cpuSince(groups);
        if (config.progressFromParent)
          timer = setInterval(() => {
            totals().then((t) => {
              const handled = t.receptions + t.dropped - from.receptions - from.dropped;
              if (child.connected)
                child.send({ type: 'progress', handled } satisfies ControlMessage);
            }, failed);
          }, 200);
      } else if (m.type === 'load-end') {
        clearInterval(timer);
        const seconds = (performance.now() - t0) / 1000;
        const used = cpu?.() ?? { cores: {}, machineBusy: NaN };
        window = totals().then((b) => ({
          seconds,
          stored: (b.receptions - from.receptions) / seconds,
          packets: (b.packets - from.packets) / seconds,
          dropped: b.dropped - from.dropped,
          ...used,
        }));
      } else if (m.type === 'result' && window)
        window.then((w) => resolve({ result: m.result, ...w }), failed);
    });
    child.on('exit', (code) => {
      if (code !== 0) failed(new Error(`load process (${config.mode}) exited with ${code}`));
      else if (!window) failed(new Error(`load process (${config.mode}) ended without its window`));
    });
  });
}

/** Deletes the run's keys (an instance stopped with receptions still held leaves its journal). */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }))
      if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const loadBefore = machine().loadAverage1mAtStart;
  ensureTools();
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-bench-cluster-'));
  const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_cluster_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const databaseUrl = new URL(baseUrl);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `tinygs-bench-cluster:${schema}:`;
  const lbPort = await freePort();
  const lb = `http://127.0.0.1:${lbPort}`;
  const env = {
    ...sharedEnv({
      dir,
      databaseUrl: databaseUrl.toString(),
      redisUrl,
      lbUrl: lb,
    }),
    SERVER_SECRET: BENCH_SECRET,
    REDIS_KEY_PREFIX: redisPrefix,
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'warn',
    // The load is far above any station's real rate: it measures the pipeline, not the limits.
    MQTT_RX_PER_SECOND: '100000',
  };
  const pids: Record<string, number[]> = {};
  const groups: Groups = () => {
    const nginx = pids.nginx?.[0];
    return {
      ...pids,
      nginx: nginx ? [nginx, ...childPids(nginx)] : [],
      'bench (autocannon)': [process.pid],
      'postgres (whole machine)': pidsNamed('postgres'),
      'redis-server (whole machine)': pidsNamed('redis-server'),
    };
  };
  let ok = false;
  try {
    const mqttPort = await freePort();
    const broker = await startBroker({ dir, mqttPort, env });
    pids.mosquitto = pidList(broker.entry.child.pid);
    cli(['migrate', '--json'], env);
    const database = openDatabase(loadConfig(env).database);
    const stations = await seedBenchNetwork(database.db, STATIONS, 'Cluster');
    await database.close();

    const instancePorts: number[] = [];
    const instanceEntries: Awaited<ReturnType<typeof startInstance>>[] = [];
    const addInstance = async () => {
      const port = await freePort();
      const n = instancePorts.length + 1;
      // The first instance's start-up gives every seeded account its broker login.
      const entry = await startInstance({
        id: `bench-cluster-${n}`,
        port,
        env,
        brokerUrl: broker.url,
        dir,
      });
      instancePorts.push(port);
      instanceEntries.push(entry);
      pids[`instance ${n}`] = pidList(entry.child.pid);
    };
    let nginx: Awaited<ReturnType<typeof startNginx>> | null = null;
    const frontOf = async (ports: number[]) => {
      if (nginx) await stop(nginx);
      nginx = await startNginx({ dir, port: lbPort, instancePorts: ports });
      pids.nginx = pidList(nginx.child.pid);
    };
    const sumTotals = async () => {
      const all = await Promise.all(
        instancePorts.map((p) => ingestTotals(`http://127.0.0.1:${p}`)),
      );
      return all.reduce(
        (a, b) => ({
          receptions: a.receptions + b.receptions,
          packets: a.packets + b.packets,
          dropped: a.dropped + b.dropped,
        }),
        { receptions: 0, packets: 0, dropped: 0 },
      );
    };
    const stationsOnline = async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await admin.query<{ n: string }>(
          `select count(*) as n from ${schema}.stations`,
        );
        if (Number(rows[0]?.n) >= STATIONS) return;
        if (Date.now() > deadline) throw new Error('stations did not all come online');
        await sleep(250);
      }
    };
    /** Waits until the instances have stored what they hold (the stored count stops moving). */
    const settled = async () => {
      let last = -1;
      for (let i = 0; i < 60; i += 1) {
        const now = (await sumTotals()).receptions;
        if (now === last) return;
        last = now;
        await sleep(1000);
      }
    };
    const loadBase = {
      mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
      sseUrl: null,
      stations,
      warmupMs: 0,
      drainMs: 0,
      satellite: BENCH_SATELLITE,
      durationMs: SECONDS * 1000,
    };
    const ingest = async (instances: number) => {
      console.log(
        `ingest, ${instances} instance(s): ${STATIONS} stations, ${SECONDS} s closed loop (at most ${WINDOW} not yet stored), ${COPIES.min}-${COPIES.max} stations per frame ...`,
      );
      const r = await runLoad(
        {
          ...loadBase,
          mode: 'ingest',
          rate: WINDOW,
          closedLoop: true,
          progressFromParent: true,
          copies: COPIES,
          counterStart: instances * 1e9,
        },
        join(dir, `load-${instances}.json`),
        stationsOnline,
        sumTotals,
        groups,
        (pid) => (pids['load generator'] = pidList(pid)),
      );
      await settled();
      console.log(
        `  stored ${Math.round(r.stored)} receptions/s (${Math.round(r.packets)} packets/s) of ${Math.round(r.result.sent / r.seconds)}/s published, ${r.dropped} dropped; cores ${JSON.stringify(r.cores)}, machine busy ${r.machineBusy}`,
      );
      if (!(r.stored > 0)) throw new Error(`ingest with ${instances} instance(s) stored nothing`);
      return {
        instances,
        publishedPerSecond: round(r.result.sent / r.seconds),
        storedPerSecond: round(r.stored),
        packetsPerSecond: round(r.packets),
        dropped: r.dropped,
        backpressureSkips: r.result.backpressureSkips,
        seconds: round(r.seconds),
        cores: r.cores,
        machineBusy: r.machineBusy,
      };
    };

    await addInstance();
    await frontOf(instancePorts);
    const ingest1 = await ingest(1);

    // The read routes, on what the ingest stored.
    const { rows: packetRows } = await admin.query<{ id: string }>(
      `select id from ${schema}.packets order by id desc limit ${IDS}`,
    );
    const { rows: stationRows } = await admin.query<{ id: string }>(
      `select id from ${schema}.stations order by id limit ${IDS}`,
    );
    const routes: Record<string, string[]> = {
      '/v1/stations': ['/v1/stations'],
      '/v2/packets': ['/v2/packets'],
      '/v1/packet/{id}': packetRows.map((r) => `/v1/packet/${r.id}`),
      '/v1/station/{id}': stationRows.map((r) => `/v1/station/${encodeURIComponent(r.id)}`),
    };
    const { manifestFile, bytesOf } = await snapshot(lb, routes, join(dir, 'static'));
    const reads = async (what: string) => {
      console.log(`reads through nginx, ${what} ...`);
      const cpu = cpuSince(groups);
      const out: Record<string, Measured> = {};
      for (const [name, paths] of Object.entries(routes)) {
        await cannon(lb, paths, { connections: CONNECTIONS, seconds: 2 }); // warm-up
        const m = await cannon(lb, paths, { connections: CONNECTIONS, seconds: READ_SECONDS });
        console.log(
          `  ${name.padEnd(18)} ${String(Math.round(m.reqPerSec)).padStart(6)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms  errors ${m.errors}`,
        );
        if (m.errors > 0) throw new Error(`${name} through nginx (${what}): ${m.errors} errors`);
        out[name] = m;
      }
      return { routes: out, ...cpu() };
    };
    const reads1 = await reads('1 instance');

    await addInstance();
    await frontOf(instancePorts);
    const reads2 = await reads('2 instances');
    const ingest2 = await ingest(2);

    // Ceilings: the instances leave (they leave the share group on SIGTERM), Mosquitto and nginx stay.
    for (const entry of instanceEntries) await stop(entry);
    for (const n of [1, 2]) delete pids[`instance ${n}`];
    instancePorts.length = 0;
    console.log(
      `bare Mosquitto: the same load to one subscriber, at most ${RAW_WINDOW} in flight ...`,
    );
    const raw = await runLoad(
      {
        ...loadBase,
        mode: 'raw',
        rate: RAW_WINDOW,
        copies: COPIES,
        rawSubscriber: {
          username: 'tinygs-server',
          password: serverBrokerPassword(BENCH_SECRET),
          topic: '$share/bench/tinygs/+/+/tele/#',
        },
      },
      join(dir, 'load-raw.json'),
      async () => undefined,
      async () => ({ receptions: 0, packets: 0, dropped: 0 }),
      groups,
      (pid) => (pids['load generator'] = pidList(pid)),
    );
    const rawPerSecond = round(raw.result.receivedInWindow / raw.seconds);
    console.log(`  ${rawPerSecond} msg/s; cores ${JSON.stringify(raw.cores)}`);
    if (!(rawPerSecond > 0)) throw new Error('the bare Mosquitto subscriber received nothing');

    const ceilingPort = await freePort();
    const ceiling = start(
      'ceiling',
      process.execPath,
      [
        '--import',
        'tsx',
        join(here, 'api-ceiling.ts'),
        manifestFile,
        String(ceilingPort),
        'memory',
      ],
      { env: process.env, log: join(dir, 'logs/ceiling.log') },
    );
    await waitHealthy(`http://127.0.0.1:${ceilingPort}/`);
    pids['bare node:http'] = pidList(ceiling.child.pid);
    await frontOf([ceilingPort]);
    const readsCeiling = await reads('bare node:http behind it');

    const readRows = Object.keys(routes).map((route) => {
      const one = reads1.routes[route] as Measured;
      const two = reads2.routes[route] as Measured;
      const bare = readsCeiling.routes[route] as Measured;
      return {
        route,
        bytes: bytesOf[route] ?? 0,
        distinctUrls: routes[route]?.length ?? 0,
        oneInstance: one,
        twoInstances: two,
        bareCeiling: bare,
        ratioTwoToOne: round(two.reqPerSec / one.reqPerSec, 2),
        ratioOneToCeiling: round(one.reqPerSec / bare.reqPerSec, 2),
        ratioTwoToCeiling: round(two.reqPerSec / bare.reqPerSec, 2),
      };
    });
    const ingestRatio = round(ingest2.storedPerSecond / ingest1.storedPerSecond, 2);
    const headlines: Headline[] = [
      {
        benchmark: `Cluster ingest via Mosquitto, 1 instance (PostgreSQL, Redis; ${COPIES.min}-${COPIES.max} stations per frame): receptions stored/s`,
        figure: '/s',
        value: ingest1.storedPerSecond,
        goal: 'reported (no goal on 2 cores)',
        ceiling: 'bare Mosquitto to one subscriber (msg/s)',
        ceilingValue: rawPerSecond,
        ratio: round(ingest1.storedPerSecond / rawPerSecond, 2),
        pass: ingest1.storedPerSecond > 0,
      },
      {
        benchmark: 'Cluster ingest via Mosquitto, 2 instances: receptions stored/s',
        figure: '/s',
        value: ingest2.storedPerSecond,
        goal: 'reported: 2 instances / 1 (no goal on 2 cores)',
        ceiling: '1 instance, same run (/s)',
        ceilingValue: ingest1.storedPerSecond,
        ratio: ingestRatio,
        pass: ingest2.storedPerSecond > 0,
      },
      ...readRows.map((r) => ({
        benchmark: `Cluster reads through nginx ${r.route}, 2 instances: req/s (p99 ${r.twoInstances.p99Ms} ms)`,
        figure: 'req/s',
        value: round(r.twoInstances.reqPerSec),
        goal: 'reported: 2 instances / 1 (no goal on 2 cores)',
        ceiling: `1 instance, same run (req/s); bare node:http behind nginx: ${Math.round(r.bareCeiling.reqPerSec).toLocaleString('en')} req/s`,
        ceilingValue: round(r.oneInstance.reqPerSec),
        ratio: r.ratioTwoToOne,
        pass: r.twoInstances.errors === 0,
      })),
    ];
    const file = writeResult('cluster', {
      loadAverage1m: { before: loadBefore, after: machine().loadAverage1m },
      durationS: Math.round((Date.now() - startedAt) / 1000),
      shape:
        'scripts/cluster.mjs: Mosquitto 2 (dynamic security), server instances on PostgreSQL and Redis, nginx (1 worker) in front; everything on this machine',
      stations: STATIONS,
      stationsPerFrame: COPIES,
      ingest: {
        maxNotYetStored: WINDOW,
        secondsPerPhase: SECONDS,
        oneInstance: ingest1,
        twoInstances: ingest2,
        ratioTwoToOne: ingestRatio,
        bareMosquitto: {
          maxInFlight: RAW_WINDOW,
          receivedPerSecond: rawPerSecond,
          seconds: round(raw.seconds),
          cores: raw.cores,
          machineBusy: raw.machineBusy,
        },
      },
      reads: {
        connections: CONNECTIONS,
        secondsPerRoute: READ_SECONDS,
        results: readRows,
        cores: {
          oneInstance: reads1.cores,
          twoInstances: reads2.cores,
          bareCeiling: readsCeiling.cores,
        },
        machineBusy: {
          oneInstance: reads1.machineBusy,
          twoInstances: reads2.machineBusy,
          bareCeiling: readsCeiling.machineBusy,
        },
      },
      cores: 'CPU time per process over the phase / its wall time (1 = one core busy throughout)',
      headlines,
    });
    console.table(
      Object.fromEntries(
        headlines.map((h) => [
          h.benchmark.slice(0, 60),
          { value: h.value, ceiling: h.ceilingValue, ratio: h.ratio },
        ]),
      ),
    );
    console.log(`written: ${file}`);
    ok = true;
  } finally {
    await stopAll();
    await deleteKeys(redisUrl, redisPrefix).catch(() => undefined);
    await admin.query(`drop schema ${schema} cascade`).catch(() => undefined);
    await admin.end();
    if (ok) rmSync(dir, { recursive: true, force: true });
    else console.error(`logs kept in ${join(dir, 'logs')}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
