// `npm run bench:leaderboards`: GET /v1/leaderboards of the real server process on SQLite with
// 10,000 stations and 1,000,000 packets (one reception each) spread over the last 40 days, so the
// 30-day boards read a full window of aggregates. The aggregates are what migration 0015 computes
// from the stored packets: the seeded database is made to run that migration again (its time is
// reported). Per board and period: the first request (the ranking computed from the aggregates,
// nothing kept yet; meanwhile /healthz is asked back to back), then 50 clients for `--seconds` with the Accept-Encoding of a browser, beside
// the same bytes answered from memory by a bare node:http process over the same connections (the
// ceiling, bench/src/api-ceiling.ts). Writes bench/results/leaderboards.json.
//   npm run bench:leaderboards -- [--packets 1000000] [--stations 10000] [--seconds 10]
//     [--profile-server DIR]  (the server's V8 CPU profile, node --cpu-prof, into DIR)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { LEADERBOARD_BOARDS, LEADERBOARD_PERIODS } from '@tinygs/contracts';
import { createServer, loadConfig } from '@tinygs/server/testing';
import type { CeilingManifest } from './api-ceiling';
import { seedPackets, seedStations, supportedSatellites, type SeedPlan } from './api-seed';
import { percentile, round, writeResult, type Headline } from './machine';
import {
  cpuMs,
  cpuProfileArgs,
  freePort,
  startTsProcess,
  stopProcess,
  waitHealthy,
} from './processes';

const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '10000' },
    packets: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'profile-server': { type: 'string' },
  },
});
const PROFILE = cpuProfileArgs(values['profile-server']);
const STATIONS = Number(values.stations);
const PACKETS = Number(values.packets);
const DAYS = Number(values.days);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const USERS = Math.max(1, Math.floor(STATIONS / 10));
const DAY_MS = 86_400_000;
const ACCEPT_ENCODING = 'gzip, deflate, br';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const GOAL_P99_MS = 50;

/** One request's bytes as sent (not decompressed) and its wall time. */
function timedGet(
  url: string,
): Promise<{ ms: number; body: Buffer; headers: Record<string, string> }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        resolve({
          ms: performance.now() - t0,
          body: Buffer.concat(chunks),
          headers: {
            'content-type': String(res.headers['content-type']),
            ...(res.headers['content-encoding']
              ? { 'content-encoding': res.headers['content-encoding'] }
              : {}),
          },
        });
      });
    }).on('error', reject);
  });
}

async function load(url: string, seconds: number) {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'accept-encoding': ACCEPT_ENCODING },
  });
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

/** Makes the seeded database run migration 0015 again: its backfill reads the seeded packets. */
function forgetLeaderboardMigration(file: string): void {
  const db = new Database(file);
  try {
    for (const table of ['station_days', 'station_satellites', 'satellite_days'])
      db.exec(`drop table leaderboard_${table}`);
    db.prepare("delete from kysely_migration where name = '0015_leaderboards'").run();
    // Record distances vary by station (the seeded receptions all lie 1,500 km away).
    db.exec('update stations set record_distance_km = 500 + (rowid * 37) % 3000');
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const loadBefore = round(loadavg()[0] ?? 0, 2);
  const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-bench-leaderboards-'));
  const file = join(dataDir, 'tinygs.db');
  const env = {
    DATA_DIR: dataDir,
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    MQTT_PORT: '0',
    SERVER_SECRET: SECRET,
  };
  const open = () => createServer(loadConfig(env), { log: pino({ level: 'silent' }), parts: [] });
  const rows = [];
  let backfillMs = NaN;
  let healthDuringFirst = { requests: 0, p99Ms: NaN, maxMs: NaN };
  try {
    const setup = await open();
    const satellites = await supportedSatellites(setup.ctx.database.db);
    await setup.close();
    const plan: SeedPlan = {
      users: USERS,
      stations: STATIONS,
      satellites,
      startMs: Date.now() - DAYS * DAY_MS,
      stepMs: (DAYS * DAY_MS) / PACKETS,
    };
    let t0 = Date.now();
    await seedStations({ kind: 'sqlite', file }, plan, SECRET);
    await seedPackets({ kind: 'sqlite', file }, plan, 0, PACKETS);
    console.log(`seeded ${STATIONS} stations, ${PACKETS} packets in ${(Date.now() - t0) / 1000} s`);
    forgetLeaderboardMigration(file);
    t0 = Date.now();
    await (await open()).close();
    backfillMs = Date.now() - t0;
    console.log(`migration 0015 (backfill) on ${PACKETS} packets: ${backfillMs} ms`);

    const port = await freePort();
    const server = startTsProcess([...PROFILE, 'apps/server/src/main.ts'], {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(`${base}/healthz`);
    const manifest: CeilingManifest = {};
    const firstMs: Record<string, number> = {};
    const firstCpuMs: Record<string, number> = {};
    // Meanwhile a client asks /healthz back to back: how long the computations hold the server.
    let computing = true;
    const healthMs: number[] = [];
    const poller = (async () => {
      while (computing) healthMs.push((await timedGet(`${base}/healthz`)).ms);
    })();
    for (const board of LEADERBOARD_BOARDS)
      for (const period of LEADERBOARD_PERIODS) {
        const path = `/v1/leaderboards?board=${board}&period=${period}&limit=10`;
        const cpuBefore = cpuMs(server.pid ?? 0);
        const first = await timedGet(base + path);
        firstMs[path] = round(first.ms, 1);
        firstCpuMs[path] = cpuMs(server.pid ?? 0) - cpuBefore;
        const bodyFile = join(dataDir, `${board}-${period}`);
        writeFileSync(bodyFile, first.body);
        manifest[path] = {
          file: bodyFile,
          bytes: first.body.length,
          contentType: first.headers['content-type'] ?? '',
          ...(first.headers['content-encoding']
            ? { contentEncoding: first.headers['content-encoding'] }
            : {}),
        };
      }
    computing = false;
    await poller;
    healthDuringFirst = {
      requests: healthMs.length,
      p99Ms: round(percentile(healthMs, 99), 1),
      maxMs: round(Math.max(...healthMs), 1),
    };
    console.log(`/healthz meanwhile: ${JSON.stringify(healthDuringFirst)}`);
    const manifestFile = join(dataDir, 'manifest.json');
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const memoryPort = await freePort();
    const memory = startTsProcess(
      ['bench/src/api-ceiling.ts', manifestFile, String(memoryPort), 'memory'],
      {},
    );
    await waitHealthy(`http://127.0.0.1:${memoryPort}/`);
    try {
      for (const path of Object.keys(manifest)) {
        await load(base + path, 2); // warm-up
        const api = await load(base + path, SECONDS);
        const ceiling = await load(`http://127.0.0.1:${memoryPort}${path}`, SECONDS);
        const row = {
          path,
          bytes: manifest[path]?.bytes ?? 0,
          firstRequestMs: firstMs[path] ?? NaN,
          // the server's CPU over it, /healthz answers included (10-ms ticks)
          firstRequestServerCpuMs: firstCpuMs[path] ?? NaN,
          ...api,
          memoryReqPerSec: ceiling.reqPerSec,
          memoryP99Ms: ceiling.p99Ms,
        };
        rows.push(row);
        console.log(
          `${path.padEnd(62)} first ${String(row.firstRequestMs).padStart(6)} ms (CPU ${row.firstRequestServerCpuMs})  ${Math.round(api.reqPerSec)} req/s  p50 ${api.p50Ms} ms  p99 ${api.p99Ms} ms  memory ${Math.round(ceiling.reqPerSec)} req/s p99 ${ceiling.p99Ms} ms  errors ${api.errors}`,
        );
      }
    } finally {
      await Promise.all([stopProcess(memory), stopProcess(server)]);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const headlines: Headline[] = [
    ...rows.map((r) => ({
      benchmark: `Leaderboard ${r.path.replace('/v1/leaderboards?', '').replace('&limit=10', '')}, ${PACKETS.toLocaleString('en')} packets: p99 (ms; ${round(r.reqPerSec).toLocaleString('en')} req/s)`,
      figure: 'ms',
      value: r.p99Ms,
      goal: `p99 < ${GOAL_P99_MS} ms`,
      ceiling: `bare node:http, same bytes from memory (req/s; p99 ${r.memoryP99Ms} ms)`,
      ceilingValue: round(r.memoryReqPerSec),
      ratio: round(r.reqPerSec / r.memoryReqPerSec, 3),
      pass: r.p99Ms < GOAL_P99_MS && r.errors === 0,
    })),
    {
      benchmark: `Leaderboards: /healthz p99 while the 8 rankings are computed with nothing kept (ms; max ${healthDuringFirst.maxMs})`,
      figure: 'ms',
      value: healthDuringFirst.p99Ms,
      goal: `p99 < ${GOAL_P99_MS} ms`,
      ceiling: '',
      ceilingValue: NaN,
      ratio: NaN,
      pass: healthDuringFirst.p99Ms < GOAL_P99_MS,
    },
  ];
  const written = writeResult('leaderboards', {
    storage: 'sqlite',
    stations: STATIONS,
    packets: PACKETS,
    days: DAYS,
    connections: CONNECTIONS,
    secondsPerRun: SECONDS,
    backfillMs,
    healthDuringFirst,
    loadAverage1m: { before: loadBefore, after: round(loadavg()[0] ?? 0, 2) },
    ceiling:
      'bare node:http process answering each URL with the bytes the API sent for it from memory, over the same connections in the same run',
    results: rows,
    headlines,
  });
  console.log(`written: ${written}`);
}

await main();
