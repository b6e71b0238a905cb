// `npm run bench:sse`: 10,000 SSE clients on the real server's GET /sse/events (in-process server,
// no long-running parts; client connections in child processes so that neither side runs out of
// file descriptors or shares an event loop). One `new-packet` event is published on ctx.events and
// timed until the last client has it; median of repeated events. Ceiling, in the same run: the same
// bytes fanned out to the same clients by a bare node:http server with chunked responses.
// Writes bench/results/sse.json.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, request, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { NewPacketEvent } from '@tinygs/contracts';
import { pino } from 'pino';
import { loadConfig, createServer } from '@tinygs/server/testing';
import { median, round, sleep, writeResult, type Headline } from './machine';

const CLIENT_ENV = 'TINYGS_BENCH_SSE_CLIENT';
const now = () => performance.timeOrigin + performance.now();

type ClientMessage =
  | { type: 'ready'; connected: number }
  | { type: 'event'; k: number; at: number }
  | { type: 'error'; message: string };
type ParentMessage = { type: 'close' };

function eventFor(k: number): NewPacketEvent {
  return {
    satellite: 'Bench Sat',
    satelliteName: 'Bench-Sat',
    packetId: `bench-${k}`,
    satPos: { lat: 12.5, lng: -45.25, alt: 520.1 },
    stations: ['Bench_0_0@800000000000', 'Bench_0_1@800000000000'],
  };
}

/** Child process: `count` SSE connections; reports when each event reached all of them. */
async function clientProcess(url: string, count: number): Promise<void> {
  const send = (m: ClientMessage) => process.send?.(m);
  const got = new Map<number, number>();
  const sockets: { destroy(): void }[] = [];
  let connected = 0;
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // agent: false: one socket per request and no pool limit.
      const req = request(url, { agent: false }, (res) => {
        let buffer = '';
        let first = true;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            if (first) {
              first = false;
              connected += 1;
              resolve();
            }
            if (!block.includes('event: new-packet')) continue;
            const k = Number(/"packetId":"bench-(\d+)"/.exec(block)?.[1] ?? -1);
            const n = (got.get(k) ?? 0) + 1;
            got.set(k, n);
            if (n === count) send({ type: 'event', k, at: now() });
          }
        });
      });
      req.on('error', reject);
      req.end();
      sockets.push(req);
    });
  for (let i = 0; i < count; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, count - i) }, open));
  }
  send({ type: 'ready', connected });
  process.once('message', (m: ParentMessage) => {
    if (m.type !== 'close') return;
    for (const s of sockets) s.destroy();
    process.disconnect?.();
  });
}

interface Fleet {
  procs: ChildProcess[];
  /** resolves with the time the last client of all processes had event k */
  waitFor(k: number): Promise<number>;
  close(): Promise<void>;
}

async function startClients(url: string, clients: number, procs: number): Promise<Fleet> {
  const self = fileURLToPath(import.meta.url);
  const children: ChildProcess[] = [];
  const arrivals = new Map<number, number[]>();
  const waiters = new Map<number, (at: number) => void>();
  const ready: Promise<void>[] = [];
  for (let p = 0; p < procs; p += 1) {
    const count = Math.floor(clients / procs) + (p < clients % procs ? 1 : 0);
    const child = fork(self, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, [CLIENT_ENV]: JSON.stringify({ url, count }) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    ready.push(
      new Promise((resolve, reject) => {
        child.on('message', (m: ClientMessage) => {
          if (m.type === 'ready') resolve();
          else if (m.type === 'error') reject(new Error(m.message));
          else if (m.type === 'event') {
            const list = arrivals.get(m.k) ?? [];
            list.push(m.at);
            arrivals.set(m.k, list);
            if (list.length === procs) waiters.get(m.k)?.(Math.max(...list));
          }
        });
        child.once('exit', (code) => reject(new Error(`client process exited with ${code}`)));
      }),
    );
  }
  await Promise.all(ready);
  return {
    procs: children,
    waitFor: (k) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`event ${k} not delivered in 60 s`)),
          60_000,
        );
        waiters.set(k, (at) => {
          clearTimeout(timer);
          resolve(at);
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

/** Publishes `events` events one after another and times each to its last client. */
async function measure(fleet: Fleet, events: number, publish: (k: number) => void, first: number) {
  const latencies: number[] = [];
  for (let i = 0; i < events; i += 1) {
    const k = first + i;
    await sleep(500);
    const arrived = fleet.waitFor(k);
    const t0 = now();
    publish(k);
    latencies.push((await arrived) - t0);
  }
  return latencies.map((v) => round(v));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '10000' },
      procs: { type: 'string', default: '2' },
      events: { type: 'string', default: '5' },
    },
  });
  const CLIENTS = Number(values.clients);
  const PROCS = Number(values.procs);
  const EVENTS = Number(values.events);

  // Ceiling: a bare node:http server writing the same bytes to the same number of chunked responses.
  console.log(`ceiling: bare node:http fan-out to ${CLIENTS} clients ...`);
  const bare = new Set<ServerResponse>();
  const bareServer = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    res.write(': connected\n\n');
    bare.add(res);
  });
  await new Promise<void>((r) => bareServer.listen(0, '127.0.0.1', r));
  const bareAddr = bareServer.address();
  const bareUrl = `http://127.0.0.1:${typeof bareAddr === 'object' && bareAddr ? bareAddr.port : 0}/`;
  let fleet = await startClients(bareUrl, CLIENTS, PROCS);
  const ceiling = await measure(
    fleet,
    EVENTS,
    (k) => {
      const chunk = `event: new-packet\ndata: ${JSON.stringify(eventFor(k))}\n\n`;
      for (const res of bare) res.write(chunk);
    },
    0,
  );
  await fleet.close();
  for (const res of bare) res.end();
  await new Promise<void>((r) => bareServer.close(() => r()));

  console.log(`server: GET /sse/events with ${CLIENTS} clients ...`);
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-bench-sse-'));
  const server = await createServer(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      SIMULATED_STATIONS: '0',
      LOG_LEVEL: 'warn',
      SEED_ON_EMPTY: 'false',
    }),
    { log: pino({ level: 'warn' }), parts: [] },
  );
  let latencies: number[] = [];
  try {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = server.app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/sse/events`;
    fleet = await startClients(url, CLIENTS, PROCS);
    latencies = await measure(
      fleet,
      EVENTS,
      (k) => server.ctx.events.publish('new-packet', eventFor(k)),
      100,
    );
    await fleet.close();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const figure = round(median(latencies));
  const ceilingMs = round(median(ceiling));
  const headline: Headline = {
    benchmark: `SSE fan-out, ${CLIENTS} clients`,
    figure: 'publish -> last client (median ms)',
    value: figure,
    goal: '',
    ceiling: 'bare node:http chunked fan-out (ms)',
    ceilingValue: ceilingMs,
    ratio: round(ceilingMs / figure, 2),
    pass: true,
  };
  const file = writeResult('sse', {
    clients: CLIENTS,
    clientProcesses: PROCS,
    eventBytes: Buffer.byteLength(`event: new-packet\ndata: ${JSON.stringify(eventFor(100))}\n\n`),
    latencyMs: latencies,
    ceilingMs: ceiling,
    headline,
  });
  console.table({
    'publish -> last client, median ms': { value: figure, runs: latencies.join(' ') },
    'bare node:http fan-out, median ms': { value: ceilingMs, runs: ceiling.join(' ') },
    'ceiling / figure': { value: headline.ratio, runs: '' },
  });
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
    process.exit(1);
  });
}
