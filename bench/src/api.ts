// `npm run bench:api`: the public read API of the real server process under 50 concurrent clients,
// with 10,000 stations and 100,000 then 1,000,000 packets (one reception each) written by a fast
// generator. Each call is measured against, in the same run, the same bytes answered from memory
// by a bare node:http process over the same connections (the ceiling; the same bytes read from a
// file per request are measured too, as a second column). Clients send the
// Accept-Encoding of a browser. Packet and station pages rotate over 10,000 different ids (the
// server caches no single-row answers, so they measure the database path); the station list and
// the satellite packet lists are few documents the server keeps built. Query plans of every read
// are checked for full scans. Writes bench/results/api.json (api-postgres.json with --postgres).
//   npm run api -w bench -- [--postgres] [--sizes 100000,1000000] [--seconds 10] [--connections 50]
// (the root script `bench:api` passes no arguments through)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig, createServer } from '@tinygs/server/testing';
import type { CeilingManifest } from './api-ceiling';
import { explainReads, type QueryPlan } from './api-plans';
import {
  packetIdOf,
  seedPackets,
  seedStations,
  stationIdOf,
  supportedSatellites,
  type SeedPlan,
  type SeedTarget,
} from './api-seed';

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
  },
});
const POSTGRES = values.postgres === true;
const STATIONS = Number(values.stations);
// PostgreSQL is seeded over the wire; its default stops at 100,000 packets to keep the run short.
const SIZES = (values.sizes ?? (POSTGRES ? '100000' : '100000,1000000')).split(',').map(Number);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const IDS = Number(values.ids);
const USERS = Math.max(1, Math.floor(STATIONS / 10));
const ACCEPT_ENCODING = 'gzip, deflate, br';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const GOALS = { p99Ms: 50, ratioToCeiling: 0.5 };

async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} never answered`);
}

/** The exact bytes and headers the API sends for a path (no decompression on our side). */
function fetchRaw(
  url: string,
): Promise<{ body: Buffer; contentType: string; contentEncoding?: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        const enc = res.headers['content-encoding'];
        resolve({
          body: Buffer.concat(chunks),
          contentType: String(res.headers['content-type']),
          ...(enc ? { contentEncoding: enc } : {}),
        });
      });
    }).on('error', reject);
  });
}

interface Measured {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function cannon(base: string, paths: string[], seconds = SECONDS): Promise<Measured> {
  let next = 0;
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'accept-encoding': ACCEPT_ENCODING },
    requests: [
      { setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] as string }) },
    ],
  });
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

function startProcess(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

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
  ratioToStaticFile: number;
  meetsGoals: boolean;
}

/** Fetches every URL's exact bytes from the API and writes them as static files plus a manifest. */
async function snapshot(
  base: string,
  routes: Record<string, string[]>,
  dir: string,
): Promise<{ manifestFile: string; bytesOf: Record<string, number> }> {
  mkdirSync(dir, { recursive: true });
  const manifest: CeilingManifest = {};
  const bytesOf: Record<string, number> = {};
  for (const [name, paths] of Object.entries(routes)) {
    let total = 0;
    for (let k = 0; k < paths.length; k += 32) {
      await Promise.all(
        paths.slice(k, k + 32).map(async (path, j) => {
          const got = await fetchRaw(base + path);
          const file = join(dir, `${name.replace(/\W/g, '')}-${k + j}`);
          writeFileSync(file, got.body);
          manifest[path] = {
            file,
            bytes: got.body.length,
            contentType: got.contentType,
            ...(got.contentEncoding ? { contentEncoding: got.contentEncoding } : {}),
          };
          total += got.body.length;
        }),
      );
    }
    bytesOf[name] = Math.round(total / paths.length);
  }
  const manifestFile = join(dir, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify(manifest));
  return { manifestFile, bytesOf };
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
  const plans: Record<number, QueryPlan[]> = {};
  try {
    // Schema and catalogue through the server's own start-up; then rows straight into storage.
    const setup = await createServer(loadConfig(env), {
      log: pino({ level: 'silent' }),
      parts: [],
    });
    const satellites = await supportedSatellites(setup.ctx.database.db);
    await setup.close();
    const plan: SeedPlan = {
      users: USERS,
      stations: STATIONS,
      satellites,
      startMs: Date.now() - Math.max(...SIZES) * 1000,
    };
    let t0 = Date.now();
    await seedStations(target, plan, SECRET);
    console.log(
      `seeded ${USERS.toLocaleString()} users and ${STATIONS.toLocaleString()} stations in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    let filled = 0;
    for (const size of SIZES) {
      t0 = Date.now();
      await seedPackets(target, plan, filled, size);
      filled = size;
      console.log(
        `seeded ${size.toLocaleString()} packets in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      plans[size] = await explainReads(target, {
        satellite: satellites[0] as string,
        stationId: stationIdOf(7, USERS),
        packetId: packetIdOf(size >> 1),
        serverTime: plan.startMs + (size >> 1) * 1000,
      });
      for (const p of plans[size] ?? [])
        if (p.fullScan) console.log(`FULL SCAN in ${p.call}: ${p.plan.join(' | ')}`);

      const port = await freePort();
      const server = startProcess(['apps/server/src/main.ts'], {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      const base = `http://127.0.0.1:${port}`;
      await waitHealthy(`${base}/healthz`);
      const spread = (n: number, of: number) =>
        Array.from({ length: Math.min(n, of) }, (_, k) => Math.floor((k * of) / Math.min(n, of)));
      const routes: Record<string, string[]> = {
        '/v1/stations': ['/v1/stations'],
        '/v2/packets?satellite=': satellites.map(
          (s) => `/v2/packets?satellite=${encodeURIComponent(s)}`,
        ),
        '/v1/packet/{id}': spread(IDS, size).map((i) => `/v1/packet/${packetIdOf(i)}`),
        '/v1/station/{id}': spread(IDS, STATIONS).map(
          (i) => `/v1/station/${encodeURIComponent(stationIdOf(i, USERS))}`,
        ),
      };

      // The same bytes as static files, fetched before the measured runs.
      const { manifestFile, bytesOf } = await snapshot(
        base,
        routes,
        join(dataDir, `static-${size}`),
      );
      const diskPort = await freePort();
      const memoryPort = await freePort();
      const disk = startProcess(
        ['bench/src/api-ceiling.ts', manifestFile, String(diskPort), 'disk'],
        {},
      );
      const memory = startProcess(
        ['bench/src/api-ceiling.ts', manifestFile, String(memoryPort), 'memory'],
        {},
      );
      await waitHealthy(`http://127.0.0.1:${diskPort}/`);
      await waitHealthy(`http://127.0.0.1:${memoryPort}/`);

      for (const [name, paths] of Object.entries(routes)) {
        await cannon(base, paths, 2); // warm-up: JIT, SQLite page cache
        const api = await cannon(base, paths);
        const file = await cannon(`http://127.0.0.1:${diskPort}`, paths);
        const mem = await cannon(`http://127.0.0.1:${memoryPort}`, paths);
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
          meetsGoals: api.p99Ms < GOALS.p99Ms && ratio >= GOALS.ratioToCeiling && api.errors === 0,
        };
        results.push(row);
        console.log(
          `${size.toLocaleString().padStart(9)}  ${name.padEnd(24)} ${String(Math.round(api.reqPerSec)).padStart(6)} req/s  p50 ${String(api.p50Ms).padStart(3)} ms  p99 ${String(api.p99Ms).padStart(3)} ms  static file ${String(Math.round(file.reqPerSec)).padStart(6)} req/s (p99 ${file.p99Ms} ms)  memory ${String(Math.round(mem.reqPerSec)).padStart(6)}  ratio ${ratio.toFixed(2)}  ${row.meetsGoals ? 'ok' : 'MISSED'}  errors ${api.errors}`,
        );
      }
      await Promise.all([stopProcess(disk), stopProcess(memory), stopProcess(server)]);
    }
  } finally {
    await drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log(
    `\n${'packets'.padStart(9)}  ${'route'.padEnd(24)} ${'req/s'.padStart(6)} ${'p50'.padStart(5)} ${'p99'.padStart(5)}  memory req/s  ratio  file req/s  goals (${POSTGRES ? 'PostgreSQL' : 'SQLite'})`,
  );
  for (const r of results)
    console.log(
      `${r.packets.toLocaleString().padStart(9)}  ${r.route.padEnd(24)} ${String(Math.round(r.reqPerSec)).padStart(6)} ${String(r.p50Ms).padStart(5)} ${String(r.p99Ms).padStart(5)}  ${String(Math.round(r.memoryReqPerSec)).padStart(12)}  ${r.ratio.toFixed(2).padStart(5)}  ${String(Math.round(r.staticFileReqPerSec)).padStart(10)}  ${r.meetsGoals ? 'met' : 'missed'}`,
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
    acceptEncoding: ACCEPT_ENCODING,
    ceiling:
      'bare node:http process answering each URL with the bytes the API sent for it from memory (memory; the ratio), over the same connections in the same run; the same bytes streamed from a file per request (staticFile) for reference',
    goals: GOALS,
    results,
    fullScans: Object.fromEntries(
      Object.entries(plans).map(([size, p]) => [
        size,
        p.filter((q) => q.fullScan).map((q) => q.call),
      ]),
    ),
    queryPlans: plans,
  };
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  writeFileSync(
    join(repo, `bench/results/${POSTGRES ? 'api-postgres' : 'api'}.json`),
    `${JSON.stringify(out, null, 2)}\n`,
  );
}

await main();
