// Helpers of the cluster suites: the test Redis (TEST_REDIS_URL, default the local one), a key
// prefix of each suite's own and its clean-up, a Redis of a test's own to kill, and more server
// instances on one configuration.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer } from 'node:net';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { Config } from '../src/config';
import { writeMosquittoConfig } from '../src/network/mosquitto-config';
import type { Part } from '../src/part';
import { createServer as createTinygsServer, type Server } from '../src/server';
import { waitFor } from './network-helpers';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Whether the cluster suites can run; with REQUIRE_REDIS=1 (CI) an unreachable Redis fails. */
export const redisAvailable = await redisReachable();
if (!redisAvailable && process.env.REQUIRE_REDIS === '1') {
  throw new Error(`Redis is required (REQUIRE_REDIS=1) but ${REDIS_URL} is not reachable`);
}
if (!redisAvailable)
  console.warn(`Redis at ${REDIS_URL} not reachable: the cluster suites are skipped`);

/** A prefix no other run uses: every key a suite makes starts with it. */
export function redisPrefix(suite: string): string {
  return `tinygs-test:${suite}:${Date.now().toString(36)}${randomBytes(3).toString('hex')}:`;
}

/** Deletes every key under the prefix. */
export async function deleteKeys(prefix: string, url = REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

/** Whether something accepts TCP connections on the loopback port. */
export async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export const MOSQUITTO = '/usr/sbin/mosquitto';

/** A Mosquitto started from `npm run cli -- broker mosquitto-config`'s output. */
export async function startMosquitto(dir: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const { config, url } = await writeMosquittoConfig({ dir, port, bind: '127.0.0.1' });
  const child = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  await waitFor(() => accepting(port), 10_000).catch(() => {
    child.kill();
    throw new Error(`mosquitto did not start: ${stderr}`);
  });
  return { url, process: child };
}

/** A Redis of the test's own (redis-server from the system), to stop and start at will. */
export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  /** SIGKILL: gone at once, as when its machine fails */
  kill(): Promise<void>;
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      const deadline = Date.now() + 10_000;
      for (;;) {
        const probe = new Redis(url, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          await probe.ping();
          return;
        } catch {
          if (Date.now() > deadline) throw new Error('redis-server did not start');
          await new Promise((r) => setTimeout(r, 50));
        } finally {
          probe.disconnect();
        }
      }
    },
    async kill() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGKILL');
      await exited;
    },
  };
}

export interface Instance extends Server {
  url: string;
  stop(): Promise<void>;
}

/** One more server instance on the same configuration (database, Redis), as INSTANCE_ID `id`. */
export async function startInstance(config: Config, id: string, parts: Part[]): Promise<Instance> {
  const server = await createTinygsServer(
    { ...config, instanceId: id },
    { log: pino({ level: 'silent' }), parts },
  );
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address !== 'object') throw new Error('not listening');
  let stopped = false;
  return {
    ...server,
    url: `http://127.0.0.1:${address.port}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
    },
  };
}
