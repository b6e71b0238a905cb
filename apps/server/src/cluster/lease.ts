// Jobs that must run once in the network (auto-tune scheduling, token housekeeping, the demo
// account, the simulator) run on one elected instance: the holder of a Redis lease, a key set if
// absent with an expiry (SET NX PX) and renewed well before it runs out. The holder that stops
// lets go of the lease, and the next instance to try takes it within one renewal interval; a
// holder that dies stops renewing and the lease moves when it expires. A holder that cannot renew
// (Redis unreachable) stops its jobs before the lease could have expired, so two instances never
// run them at once on the lease's account.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import type { Part, RunningPart } from '../part';
import type { RedisConnection } from './redis-connection';

export interface LeaseTimes {
  /** how long the lease holds without renewal */
  ttlMs: number;
  /** how often the holder renews it and the others try to take it */
  renewMs: number;
}

export const DEFAULT_LEASE_TIMES: LeaseTimes = { ttlMs: 15_000, renewMs: 5_000 };

/** Whether this instance holds the lease, and word when that changes. */
export interface Leadership {
  isLeader(): boolean;
  onChange(listener: (leader: boolean) => void): () => void;
}

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) else return 0 end`;

export class Lease implements Leadership {
  private readonly key: string;
  /** this holder's value: which instance, and which start of it */
  private readonly token: string;
  private leader = false;
  private renewedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private round: Promise<void> = Promise.resolve();

  constructor(
    private readonly shared: Pick<RedisConnection, 'redis' | 'prefix' | 'instanceId'>,
    name: string,
    private readonly log: Logger,
    private readonly times: LeaseTimes = DEFAULT_LEASE_TIMES,
  ) {
    this.key = `${shared.prefix}lease:${name}`;
    this.token = `${shared.instanceId} ${randomBytes(8).toString('hex')}`;
  }

  isLeader(): boolean {
    return this.leader;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tries once now (so the first instance leads from its start), then every renewal interval. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => {
      this.round = this.round.then(() => this.tick());
    }, this.times.renewMs);
    this.timer.unref();
  }

  /** Stops trying; a holder lets go (its jobs must have stopped before). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.round;
    if (!this.leader) return;
    this.set(false);
    await this.shared.redis
      .eval(RELEASE, 1, this.key, this.token)
      .catch((err: unknown) => this.log.warn({ err }, 'lease not released; it expires by itself'));
  }

  private async tick(): Promise<void> {
    const now = Date.now();
    try {
      if (this.leader) {
        const renewed = await this.shared.redis.eval(
          RENEW,
          1,
          this.key,
          this.token,
          String(this.times.ttlMs),
        );
        if (renewed === 1) this.renewedAt = now;
        else {
          this.log.warn({ lease: this.key }, 'lease lost to another instance');
          this.set(false);
        }
        return;
      }
      const taken = await this.shared.redis.set(this.key, this.token, 'PX', this.times.ttlMs, 'NX');
      if (taken === 'OK') {
        this.renewedAt = now;
        this.log.info(
          { lease: this.key },
          'lease taken: this instance runs the jobs that run once',
        );
        this.set(true);
      }
    } catch (err) {
      // Unreachable: the lease may expire without us; stop one renewal interval before it could.
      if (this.leader && now - this.renewedAt >= this.times.ttlMs - this.times.renewMs) {
        this.log.warn({ err }, 'lease could not be renewed (Redis unavailable); jobs stopped');
        this.set(false);
      }
    }
  }

  private set(leader: boolean): void {
    if (this.leader === leader) return;
    this.leader = leader;
    for (const listener of this.listeners) listener(leader);
  }
}

/**
 * A part that runs on the elected instance only (with REDIS_URL): started when this instance
 * takes the lease, stopped when it loses it. Without shared state it simply starts.
 */
export function elected(part: Part): Part {
  return {
    name: part.name,
    async start(ctx: AppContext) {
      const lease = ctx.services.shared?.jobs;
      if (!lease) return part.start(ctx);
      let running: RunningPart | null = null;
      let changes: Promise<void> = Promise.resolve();
      const follow = (leader: boolean) => {
        changes = changes
          .then(async () => {
            if (leader && !running) running = await part.start(ctx);
            else if (!leader && running) {
              const stopping = running;
              running = null;
              await stopping.stop();
            }
          })
          .catch((err: unknown) =>
            ctx.log.error({ err, part: part.name }, 'elected part did not start or stop'),
          );
        return changes;
      };
      const off = lease.onChange((leader) => void follow(leader));
      if (lease.isLeader()) await follow(true);
      return {
        async stop() {
          off();
          await follow(false);
        },
      };
    },
  };
}
