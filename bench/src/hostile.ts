// `npm run bench:hostile`: what a pathological request costs the real server process. Every route
// the server documents in its OpenAPI document gets each of its body fields, query parameters and
// path segments at 1 MB (bodies plain and gzip-compressed), from an anonymous client with a fresh
// address each time (TRUST_PROXY=1, X-Forwarded-For), so per-client limits never answer in place
// of the parser. For each such request the server's CPU time is read from /proc (user + system,
// over REPEATS sends of the same request) and the client's wall time is taken; meanwhile a second
// client polls /healthz, whose latency is compared with a quiet phase before. The ceiling, in the
// same run, is a bare node:http process that answers every request with a fixed 400 at once
// without looking at it (it gets the same bytes over the same loopback). Writes
// bench/results/hostile.json. A send the server cuts short (it answers and closes while the body is
// still being written; node does so for heads over its limit) counts as refused: status 0.
//   npm run hostile -w bench -- [--repeats 10] [--size 1048576]
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { machine, median, percentile, round, writeResult, type Headline } from './machine';
import {
  CLOCK_TICK_MS,
  cpuMs,
  freePort,
  startTsProcess,
  stopProcess,
  waitHealthy,
} from './processes';

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '10' },
    size: { type: 'string', default: String(1024 * 1024) },
  },
});
const REPEATS = Number(values.repeats);
const SIZE = Number(values.size);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
/** the bound: a pathological request answered 4xx in under 100 ms of server time */
const GOAL_SERVER_MS = 100;

interface Hostile {
  label: string;
  method: string;
  path: string;
  body?: Buffer;
  gzip: boolean;
}

interface Operation {
  method: string;
  path: string;
  bodyKeys: string[];
  queryKeys: string[];
}

interface SchemaNode {
  properties?: Record<string, unknown>;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
}

function keysOf(schema: SchemaNode | undefined): string[] {
  if (!schema) return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(keysOf);
  return [...new Set([...Object.keys(schema.properties ?? {}), ...branches])];
}

/** The documented operations, read from the server's own OpenAPI document. */
async function operations(base: string): Promise<Operation[]> {
  type Spec = {
    parameters?: { in: string; name: string }[];
    requestBody?: { content?: Record<string, { schema?: SchemaNode }> };
  };
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Spec>>;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, spec]) => ({
        method: m.toUpperCase(),
        path,
        bodyKeys: keysOf(spec.requestBody?.content?.['application/json']?.schema),
        queryKeys: (spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
  );
}

function hostileRequests(ops: Operation[]): Hostile[] {
  const text = 'a'.repeat(SIZE);
  const out: Hostile[] = [];
  for (const op of ops) {
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
    const path = (huge?: string) =>
      params.reduce((p, name) => p.replace(`{${name}}`, name === huge ? text : 'x'), op.path);
    for (const key of op.bodyKeys) {
      // the shape that used to backtrack where an e-mail belongs, plain text elsewhere
      const value = key === 'email' ? `a@${'.'.repeat(SIZE)}@` : text;
      const body = Buffer.from(JSON.stringify({ [key]: value }));
      out.push({
        label: `${op.method} ${op.path} body.${key}`,
        method: op.method,
        path: path(),
        body,
        gzip: false,
      });
      out.push({
        label: `${op.method} ${op.path} body.${key} gzip`,
        method: op.method,
        path: path(),
        body: gzipSync(body),
        gzip: true,
      });
    }
    for (const key of op.queryKeys)
      out.push({
        label: `${op.method} ${op.path} query.${key}`,
        method: op.method,
        path: `${path()}?${key}=${text}`,
        gzip: false,
      });
    for (const name of params)
      out.push({
        label: `${op.method} ${op.path} path.${name}`,
        method: op.method,
        path: path(name),
        gzip: false,
      });
  }
  return out;
}

let addressCounter = 0;
function nextAddress(): string {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/** One request on its own connection; resolves with the status and the wall time in ms. */
function send(port: number, h: Hostile): Promise<{ status: number; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      'x-forwarded-for': nextAddress(),
      connection: 'close',
    };
    if (h.body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = h.body.length;
      if (h.gzip) headers['content-encoding'] = 'gzip';
    }
    const done = (status: number) =>
      resolve({ status, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    const req = request(
      { host: '127.0.0.1', port, method: h.method, path: h.path, headers },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', () => done(res.statusCode ?? 0));
      },
    );
    // A server may answer and close before the whole body is sent: that counts as its answer.
    req.on('error', () => done(0));
    req.end(h.body);
  });
}

interface Case {
  label: string;
  statuses: number[];
  serverCpuMs: number;
  wallMsMedian: number;
}

async function measure(port: number, pid: number, requests: Hostile[]): Promise<Case[]> {
  const cases: Case[] = [];
  for (const h of requests) {
    const before = cpuMs(pid);
    const walls: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < REPEATS; i++) {
      const r = await send(port, h);
      walls.push(r.ms);
      statuses.add(r.status);
    }
    cases.push({
      label: h.label,
      statuses: [...statuses].sort(),
      serverCpuMs: round((cpuMs(pid) - before) / REPEATS, 2),
      wallMsMedian: round(median(walls), 2),
    });
  }
  return cases;
}

/** /healthz latencies while `work` runs, one request after the other. */
async function pollHealth(port: number, work: Promise<unknown>): Promise<number[]> {
  let running = true;
  void work.finally(() => (running = false));
  const out: number[] = [];
  while (running) {
    const r = await send(port, { label: 'healthz', method: 'GET', path: '/healthz', gzip: false });
    out.push(r.ms);
    await new Promise((ok) => setTimeout(ok, 20));
  }
  return out;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-bench-hostile-'));
  const apiPort = await freePort();
  const ceilingPort = await freePort();
  const api = startTsProcess(['apps/server/src/main.ts'], {
    DATA_DIR: dataDir,
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'silent',
    LOG_FORMAT: 'json',
    TRUST_PROXY: '1',
    SERVER_SECRET: SECRET,
  });
  const ceiling = startTsProcess(['bench/src/hostile-ceiling.ts', String(ceilingPort)], {});
  try {
    await waitHealthy(`http://127.0.0.1:${apiPort}/healthz`);
    await waitHealthy(`http://127.0.0.1:${ceilingPort}/healthz`);
    const requests = hostileRequests(await operations(`http://127.0.0.1:${apiPort}`));
    console.log(`${requests.length} hostile requests of ${SIZE} bytes, ${REPEATS} sends each`);

    const quietHealth = await pollHealth(apiPort, new Promise((ok) => setTimeout(ok, 3000)));
    // warm-up: JIT and the first compile of each route's validators
    await measure(apiPort, api.pid ?? 0, requests.slice(0, 20));
    const work = measure(apiPort, api.pid ?? 0, requests);
    const busyHealth = await pollHealth(apiPort, work);
    const apiCases = await work;
    const ceilingCases = await measure(ceilingPort, ceiling.pid ?? 0, requests);

    const not4xx = apiCases.filter((c) => c.statuses.some((s) => s !== 0 && (s < 400 || s >= 500)));
    const worst = [...apiCases].sort((a, b) => b.serverCpuMs - a.serverCpuMs);
    const apiCpu = apiCases.map((c) => c.serverCpuMs);
    const ceilingCpu = ceilingCases.map((c) => c.serverCpuMs);
    const summary = {
      requests: requests.length,
      bytesEach: SIZE,
      repeats: REPEATS,
      serverCpuMs: {
        median: round(median(apiCpu), 2),
        p99: round(percentile(apiCpu, 99), 2),
        max: round(Math.max(...apiCpu), 2),
      },
      ceilingCpuMs: {
        median: round(median(ceilingCpu), 2),
        p99: round(percentile(ceilingCpu, 99), 2),
        max: round(Math.max(...ceilingCpu), 2),
      },
      wallMs: {
        median: round(median(apiCases.map((c) => c.wallMsMedian)), 2),
        max: round(Math.max(...apiCases.map((c) => c.wallMsMedian)), 2),
        ceilingMedian: round(median(ceilingCases.map((c) => c.wallMsMedian)), 2),
      },
      healthz: {
        quietP50Ms: round(percentile(quietHealth, 50), 2),
        quietP99Ms: round(percentile(quietHealth, 99), 2),
        busyP50Ms: round(percentile(busyHealth, 50), 2),
        busyP99Ms: round(percentile(busyHealth, 99), 2),
        busySamples: busyHealth.length,
      },
      notRefusedWith4xx: not4xx.map((c) => `${c.label}: ${c.statuses.join(',')}`),
      costliest: worst.slice(0, 10),
    };
    console.log(JSON.stringify(summary, null, 2));
    const headlines: Headline[] = [
      {
        benchmark: `Hostile requests (${requests.length}: every route's fields at 1 MB, plain and gzip): server CPU per refusal, worst (ms)`,
        figure: 'server CPU per refusal, max (ms)',
        value: summary.serverCpuMs.max,
        goal: `< ${GOAL_SERVER_MS} ms, every answer 4xx`,
        ceiling: 'bare node:http answering 400 unread',
        ceilingValue: summary.ceilingCpuMs.max,
        ratio: round(
          summary.ceilingCpuMs.max / Math.max(summary.serverCpuMs.max, CLOCK_TICK_MS / REPEATS),
          2,
        ),
        pass: summary.serverCpuMs.max < GOAL_SERVER_MS && not4xx.length === 0,
      },
      {
        benchmark: '/healthz while hostile requests run: p99 (ms)',
        figure: 'p99 (ms)',
        value: summary.healthz.busyP99Ms,
        goal: '< 100 ms',
        ceiling: '/healthz p99 on the quiet server',
        ceilingValue: summary.healthz.quietP99Ms,
        ratio: round(summary.healthz.quietP99Ms / summary.healthz.busyP99Ms, 2),
        pass: summary.healthz.busyP99Ms < 100,
      },
    ];
    const file = writeResult('hostile', {
      headlines,
      ...summary,
      ceilingCostliest: [...ceilingCases]
        .sort((a, b) => b.serverCpuMs - a.serverCpuMs)
        .slice(0, 10),
    });
    console.log(`wrote ${file}; machine ${JSON.stringify(machine())}`);
  } finally {
    await stopProcess(api);
    await stopProcess(ceiling);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
