// In-process sliding-window limits for the account endpoints (login requests, failed logins,
// firmware credential polling). One process holds the counts; instances sharing state in Redis
// use the same windows there for the login limits (cluster/shared-limits.ts).
import { HttpError } from '../http/errors';

/** A sliding-window limit: in this process (WindowLimiter) or shared by the instances. */
export interface Limiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Milliseconds until `key` may act again; 0 when it may act now. Does not count. */
  retryAfterMs(key: string): number | Promise<number>;
  /** Counts one action of `key`. */
  record(key: string): void | Promise<void>;
  /** Counts one action unless `key` is over its limit; returns the wait (0: counted). */
  consume(key: string): number | Promise<number>;
}

// Keys seen once and never again would pile up; expired ones are swept when the map grows past this.
const SWEEP_AT = 5_000;

export class WindowLimiter implements Limiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Milliseconds until `key` may act again; 0 when it may act now. Does not count. */
  retryAfterMs(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    return (recent[0] ?? now) + this.windowMs - now;
  }

  /** Counts one action of `key`. */
  record(key: string, now = Date.now()): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > SWEEP_AT) this.sweep(now);
  }

  /** Counts one action unless `key` is over its limit; returns the wait (0: counted). */
  consume(key: string, now = Date.now()): number {
    const wait = this.retryAfterMs(key, now);
    if (wait === 0) this.record(key, now);
    return wait;
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const all = this.hits.get(key) ?? [];
    return all.filter((t) => t > now - this.windowMs);
  }

  private sweep(now: number): void {
    for (const [key, times] of this.hits) {
      if (!times.some((t) => t > now - this.windowMs)) this.hits.delete(key);
    }
  }
}

/** 429 with the wait in seconds; routes copy it into the Retry-After header. */
export class RateLimited extends HttpError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterMs: number, message = 'Too many requests, please try again later.') {
    super(429, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

type ReplyHeaders = { header(name: string, value: string): unknown };

function refuse(reply: ReplyHeaders, waitMs: number, message?: string): void {
  if (waitMs <= 0) return;
  const err = new RateLimited(waitMs, message);
  reply.header('retry-after', String(err.retryAfterSeconds));
  throw err;
}

/** Over the limit: sets Retry-After and throws the 429. `count` also records this action. */
export function enforceLimit(
  reply: ReplyHeaders,
  limiter: WindowLimiter,
  key: string,
  message?: string,
  count?: boolean,
): void;
export function enforceLimit(
  reply: ReplyHeaders,
  limiter: Limiter,
  key: string,
  message?: string,
  count?: boolean,
): void | Promise<void>;
export function enforceLimit(
  reply: ReplyHeaders,
  limiter: Limiter,
  key: string,
  message?: string,
  count = true,
): void | Promise<void> {
  const wait = count ? limiter.consume(key) : limiter.retryAfterMs(key);
  if (typeof wait === 'number') return refuse(reply, wait, message);
  return wait.then((ms) => refuse(reply, ms, message));
}
