// In-process sliding-window limits for the account endpoints (login requests, failed logins,
// firmware credential polling). One process holds the counts; with several API instances each
// enforces its own share, which still bounds abuse.
import { HttpError } from '../http/errors';

// Keys seen once and never again would pile up; expired ones are swept when the map grows past this.
const SWEEP_AT = 5_000;

export class WindowLimiter {
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

  /** Counts one action and throws 429 when `key` is already over its limit. */
  consume(key: string, message?: string, now = Date.now()): void {
    this.check(key, message, now);
    this.record(key, now);
  }

  /** Throws 429 when `key` is over its limit, without counting. */
  check(key: string, message?: string, now = Date.now()): void {
    const wait = this.retryAfterMs(key, now);
    if (wait > 0) throw new RateLimited(wait, message);
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

/** Over the limit: sets Retry-After and throws the 429. `count` also records this action. */
export function enforceLimit(
  reply: ReplyHeaders,
  limiter: WindowLimiter,
  key: string,
  message?: string,
  count = true,
): void {
  try {
    if (count) limiter.consume(key, message);
    else limiter.check(key, message);
  } catch (err) {
    if (err instanceof RateLimited) reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
}
