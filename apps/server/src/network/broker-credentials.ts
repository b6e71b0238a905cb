// Which credential a broker login matched: the account-wide MQTT password (all of the user's
// stations) or one station's own password, issued with its one-time code (that station only).
// The username is the numeric user id either way, as the firmware sends it; the password tells
// the credentials apart.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema';
import { decryptSecret, safeEqual } from '../lib/crypto';
import { listStationCredentials } from '../repositories/station-credentials';
import { findUserById } from '../repositories/users';
import type { BrokerIdentity } from './broker-acl';

function matches(box: string, secret: string, password: string): boolean {
  return safeEqual(decryptSecret(box, secret), password);
}

export async function brokerIdentity(
  db: Kysely<Database>,
  secret: string,
  log: Logger,
  /** station credentials looked at, newest first (issuing prunes those of vanished stations) */
  maxStationCredentials: number,
  username: string,
  password: string,
): Promise<BrokerIdentity | null> {
  const user = await findUserById(db, username);
  if (!user) return null;
  try {
    if (matches(user.mqttPasswordEnc, secret, password)) return { userId: user.id, station: null };
  } catch (err) {
    log.warn({ err, userId: user.id }, 'MQTT password of user cannot be decrypted');
  }
  for (const c of await listStationCredentials(db, user.id, maxStationCredentials)) {
    try {
      if (matches(c.passwordEnc, secret, password))
        return { userId: user.id, station: c.stationName };
    } catch (err) {
      log.warn({ err, userId: user.id }, 'station MQTT credential cannot be decrypted');
    }
  }
  return null;
}
