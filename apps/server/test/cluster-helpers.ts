// Helpers of the cluster suites: the test Redis (TEST_REDIS_URL, default the local one), a key
// prefix of each suite's own, and its clean-up.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

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
