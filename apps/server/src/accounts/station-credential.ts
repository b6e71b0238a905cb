// A new station's own MQTT password, handed out once through its one-time code. The broker
// accepts it for that station's topics only, so a code captured by someone else, or a station
// handed on, never exposes the owner's account-wide password (docs/SECURITY.md). An external
// broker knows one password per username, and the username is the user id the firmware names
// its topics with: there the account password is handed out instead.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/schema';
import { decryptSecret, encryptSecret, newObjectId } from '../lib/crypto';
import { findUserById } from '../repositories/users';
import {
  pruneStationCredentials,
  upsertStationCredential,
} from '../repositories/station-credentials';
import { newMqttPassword } from './users';

/** A credential whose station has not connected within this long is forgotten at the next issue. */
export const UNUSED_CREDENTIAL_KEEP_MS = 24 * 60 * 60 * 1000;

/** Issues (or replaces) the station's credential; returns the password in clear, once. */
export async function issueStationCredential(
  ctx: AppContext,
  db: Kysely<Database>,
  userId: string,
  stationName: string,
  now = Date.now(),
): Promise<string> {
  if (ctx.config.mqtt.external) {
    const user = await findUserById(db, userId);
    if (!user) throw new Error(`user ${userId} not found`);
    return decryptSecret(user.mqttPasswordEnc, ctx.config.serverSecret);
  }
  const password = newMqttPassword();
  await pruneStationCredentials(db, userId, now - UNUSED_CREDENTIAL_KEEP_MS);
  await upsertStationCredential(db, {
    id: newObjectId(now),
    userId,
    stationName,
    passwordEnc: encryptSecret(password, ctx.config.serverSecret),
    createdAt: now,
  });
  return password;
}
