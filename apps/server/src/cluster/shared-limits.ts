// Limits that hold across instances (REDIS_URL), so a client cannot multiply its budget by the
// number of instances: the per-client request limits of @fastify/rate-limit (its Redis store on
// our connection), the account limits of the login routes (a sliding window per key in a Redis
// sorted set, checked and counted in one script) and the bot check's used solutions (SET NX with
// the challenge's expiry).
//
// While Redis cannot be asked, what needs these answers 503 rather than run unlimited: the routes
// with a per-client limit (login, login links, station creation, pictures, profile) refuse at
// once; everything else (public reads, live events, ingest) keeps working.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Limiter } from '../accounts/rate-limit';
import type { UsedSolutions } from '../accounts/bot-check';
import { SharedStateUnavailable, type SharedState } from './shared-state';

/** Keys hold addresses and e-mail addresses: stored as digests. */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

async function ask<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new SharedStateUnavailable(err);
  }
}

// Sliding window like WindowLimiter (accounts/rate-limit.ts), on Redis time. Modes: check (wait
// only), record (count), consume (count when not over the limit). Returns the wait in ms.
const WINDOW_SCRIPT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local mode = ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local wait = 0
if mode ~= 'record' and redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  wait = math.max(1, tonumber(oldest[2]) + window - now)
end
if mode == 'record' or (mode == 'consume' and wait == 0) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
end
return wait`;

export class SharedWindowLimiter implements Limiter {
  constructor(
    private readonly shared: SharedState,
    private readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  retryAfterMs(key: string): Promise<number> {
    return this.run(key, 'check');
  }

  async record(key: string): Promise<void> {
    await this.run(key, 'record');
  }

  consume(key: string): Promise<number> {
    return this.run(key, 'consume');
  }

  private run(key: string, mode: 'check' | 'record' | 'consume'): Promise<number> {
    return ask(async () => {
      const wait = await this.shared.redis.eval(
        WINDOW_SCRIPT,
        1,
        `${this.shared.prefix}limit:${this.name}:${digest(key)}`,
        String(this.windowMs),
        String(this.limit),
        mode,
        randomBytes(8).toString('hex'),
      );
      return Number(wait);
    });
  }
}

/** The bot check's used solutions, one key per challenge signature until the challenge expires. */
export function sharedUsedSolutions(shared: SharedState): UsedSolutions {
  return {
    use: (signature, expiresAtMs) =>
      ask(async () => {
        const set = await shared.redis.set(
          `${shared.prefix}altcha:${digest(signature)}`,
          '1',
          'PXAT',
          Math.ceil(expiresAtMs),
          'NX',
        );
        return set === 'OK';
      }),
  };
}

/**
 * Options of @fastify/rate-limit: with shared state, its Redis store on the shared connection
 * (keys under PREFIXrate:), and a hook that answers 503 on a rate-limited route while Redis is
 * unreachable. Without shared state: nothing (the plugin's in-process store).
 */
export function sharedRateLimit(app: FastifyInstance, ctx: AppContext) {
  const shared = ctx.services.shared;
  if (!shared) return {};
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config.rateLimit && !shared.available()) {
      throw new SharedStateUnavailable();
    }
  });
  return { redis: shared.redis, nameSpace: `${shared.prefix}rate:`, skipOnError: false };
}
