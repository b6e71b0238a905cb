// What the users of the shared state need of its Redis connections (the lease, the event bridge).
// A leaf file: shared-state.ts builds these and imports its users, which import only this.
import type { Redis } from 'ioredis';

export interface RedisConnection {
  /** the command connection */
  redis: Redis;
  /** every key and channel of this network starts with it (REDIS_KEY_PREFIX) */
  prefix: string;
  instanceId: string;
  /** whether the command connection is up now */
  available(): boolean;
  /** A connection of its own for subscriptions (closed with the shared state). */
  subscriber(): Promise<Redis>;
}
