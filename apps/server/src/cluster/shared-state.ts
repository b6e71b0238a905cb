// The state the instances of one network share in Redis (REDIS_URL): the claims that merge the
// copies of a frame, the live events, rate limits, the bot check's used solutions and the leases
// of the jobs that run once. Without REDIS_URL none of this starts and every part keeps its state
// in this process, as it always did.
//
// Commands fail at once while Redis cannot be reached (no offline queue, a command time-out), so
// that every user of this state can take its documented fallback without waiting
// (docs/DEPLOYMENT.md, "Redis down").
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import type { Part } from '../part';
import { bridgeEvents } from './event-bridge';
import { DEFAULT_LEASE_TIMES, Lease, type LeaseTimes, type Leadership } from './lease';
import type { RedisConnection } from './redis-connection';

export interface SharedState extends RedisConnection {
  /** the lease of the jobs that run once (cluster/lease.ts) */
  jobs: Leadership;
}

declare module '../context' {
  interface Services {
    shared: SharedState;
  }
}

/** How long a command may take before it counts as Redis being unavailable. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** Thrown (and answered 503) where a limit must hold across instances and Redis cannot be asked. */
export class SharedStateUnavailable extends HttpError {
  constructor(cause?: unknown) {
    super(503, 'Service temporarily unavailable. Please try again shortly.');
    this.name = 'SharedStateUnavailable';
    if (cause !== undefined) this.cause = cause;
  }
}

// What ioredis rejects a command with when Redis cannot be asked (no connection, time-out).
const OUTAGE_MESSAGES = new Set([
  'Command timed out',
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
]);

/** An error of a Redis command that failed because Redis is unavailable (answered 503). */
export function isRedisOutage(err: unknown): boolean {
  return (
    err instanceof Error &&
    (OUTAGE_MESSAGES.has(err.message) || err.name === 'MaxRetriesPerRequestError')
  );
}

function options(name: string): RedisOptions {
  return {
    lazyConnect: true,
    connectionName: name.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 100),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Reconnects forever, at most every 2 s.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  };
}

/** Logs the connection going down and coming back once each, not every reconnect attempt. */
function watch(redis: Redis, log: Logger, what: string): void {
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: err.message }, `Redis ${what} connection lost; retrying`);
  });
  redis.on('close', () => {
    down = true;
  });
  redis.on('ready', () => {
    if (down) log.info(`Redis ${what} connection back`);
    down = false;
  });
}

async function connect(url: string, name: string, log: Logger, what: string): Promise<Redis> {
  const redis = new Redis(url, options(name));
  watch(redis, log, what);
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `Redis at REDIS_URL cannot be reached (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return redis;
}

export interface OpenSharedState extends SharedState {
  /** starts taking part in the lease of the jobs that run once */
  startLease(): Promise<void>;
  close(): Promise<void>;
}

export async function openSharedState(
  url: string,
  prefix: string,
  instanceId: string,
  log: Logger,
  leaseTimes: LeaseTimes = DEFAULT_LEASE_TIMES,
): Promise<OpenSharedState> {
  const redis = await connect(url, `tinygs ${instanceId}`, log, 'command');
  const subscribers: Redis[] = [];
  const lease = new Lease({ redis, prefix, instanceId }, 'jobs', log, leaseTimes);
  return {
    redis,
    prefix,
    instanceId,
    jobs: lease,
    available: () => redis.status === 'ready',
    async subscriber() {
      const sub = await connect(url, `tinygs ${instanceId} sub`, log, 'subscriber');
      subscribers.push(sub);
      return sub;
    },
    startLease: () => lease.start(),
    async close() {
      await lease.stop();
      for (const r of [...subscribers, redis]) {
        await r.quit().catch(() => r.disconnect());
      }
    },
  };
}

export interface SharedStatePartOptions {
  /** lease times of the jobs that run once (tests shorten them) */
  lease?: LeaseTimes;
}

/**
 * Starts first: the parts after it and the HTTP app find `services.shared` when REDIS_URL is set.
 * It also bridges the event bus to the other instances and takes part in the jobs' lease.
 */
export function createSharedStatePart(options: SharedStatePartOptions = {}): Part {
  return {
    name: 'shared-state',
    async start(ctx: AppContext) {
      const settings = ctx.config.redis;
      if (!settings) return null;
      const log = ctx.log.child({ part: 'shared-state' });
      const shared = await openSharedState(
        settings.url,
        settings.keyPrefix,
        ctx.config.instanceId,
        log,
        options.lease,
      );
      let bridge;
      try {
        bridge = await bridgeEvents(ctx.events, shared, log);
        await shared.startLease();
      } catch (err) {
        await shared.close();
        throw err;
      }
      log.info({ prefix: settings.keyPrefix }, 'sharing state with the other instances in Redis');
      return {
        services: { shared },
        async stop() {
          await bridge.close();
          await shared.close();
        },
      };
    },
  };
}

export const sharedStatePart = createSharedStatePart();
