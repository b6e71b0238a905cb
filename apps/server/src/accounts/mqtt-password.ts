// Rotating the account-wide MQTT password from the User Console: the new password is stored at
// once, the old one is refused from then on, and connections that logged in with it are closed.
// Stations with credentials of their own (handed out with a one-time code) are not affected.
import type { MqttCredentials } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { notFound, tooManyRequests } from '../http/errors';
import { encryptSecret } from '../lib/crypto';
import { perContext } from '../lib/per-context';
import { TokenBucket, type BucketSize } from '../lib/token-bucket';
import { setMqttPasswordEnc } from '../repositories/users';
import { newMqttPassword } from './users';

/** Rotations per user: three in a row, then one every ten minutes. */
export const ROTATIONS: BucketSize = { capacity: 3, perSecond: 1 / 600 };
export const ROTATION_WAIT =
  'The MQTT password was changed several times just now. Please wait a few minutes.';

const buckets = perContext(() => new Map<string, TokenBucket>());

function mayRotate(ctx: AppContext, userId: string, now: number): boolean {
  const perUser = buckets(ctx);
  // Only logged-in users get here; refilled buckets are forgotten so the map stays small.
  if (perUser.size > 10_000) for (const [id, b] of perUser) if (b.isFull(now)) perUser.delete(id);
  let bucket = perUser.get(userId);
  if (!bucket) {
    bucket = new TokenBucket(ROTATIONS, now);
    perUser.set(userId, bucket);
  }
  return bucket.take(now);
}

export async function rotateMqttPassword(
  ctx: AppContext,
  userId: string,
  now = Date.now(),
): Promise<MqttCredentials> {
  if (!mayRotate(ctx, userId, now)) throw tooManyRequests(ROTATION_WAIT);
  const pass = newMqttPassword();
  const stored = await setMqttPasswordEnc(
    ctx.database.db,
    userId,
    encryptSecret(pass, ctx.config.serverSecret),
  );
  if (!stored) throw notFound('User not found');
  const closed = (await ctx.services.network?.accountPasswordChanged(userId, pass)) ?? 0;
  ctx.log.info({ userId, closedConnections: closed }, 'account MQTT password rotated');
  return { user: userId, pass };
}
