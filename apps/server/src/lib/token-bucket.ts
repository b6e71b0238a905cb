// A token bucket: `capacity` tokens, refilled at `perSecond`; each message takes one. Refilled
// lazily from the clock on each take, so an idle bucket costs nothing.
export interface BucketSize {
  /** largest burst allowed after a quiet spell */
  capacity: number;
  /** tokens added per second (fractions allowed: 1/60 is one a minute) */
  perSecond: number;
}

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly size: BucketSize,
    now: number,
  ) {
    this.tokens = size.capacity;
    this.at = now;
  }

  /** Takes one token; false when the bucket is empty (the message is over the rate). */
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether a token is left, without taking it. */
  hasToken(now: number): boolean {
    this.refill(now);
    return this.tokens >= 1;
  }

  /** True when the bucket has refilled completely (it can be forgotten). */
  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.size.capacity;
  }

  private refill(now: number): void {
    const elapsedS = Math.max(0, now - this.at) / 1000;
    this.at = now;
    this.tokens = Math.min(this.size.capacity, this.tokens + elapsedS * this.size.perSecond);
  }
}
