// Station-bound MQTT credentials (one per station name of a user), issued with a station's
// one-time code and matched by the broker when a station logs in.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface StationCredential {
  stationName: string;
  passwordEnc: string;
}

/** Sets the station's credential, replacing an earlier one for the same name. */
export async function upsertStationCredential(
  db: Kysely<Database>,
  row: { id: string; userId: string; stationName: string; passwordEnc: string; createdAt: number },
): Promise<void> {
  await db
    .insertInto('stationCredentials')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['userId', 'stationName']).doUpdateSet({
        id: row.id,
        passwordEnc: row.passwordEnc,
        createdAt: row.createdAt,
      }),
    )
    .execute();
}

/** The user's station credentials, newest first, at most `limit`. */
export async function listStationCredentials(
  db: Kysely<Database>,
  userId: string,
  limit: number,
): Promise<StationCredential[]> {
  return db
    .selectFrom('stationCredentials')
    .select(['stationName', 'passwordEnc'])
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Forgets credentials of stations that no longer exist (deleted, or never connected), except
 * those issued since `since`: their station may still be on its way.
 */
export async function pruneStationCredentials(
  db: Kysely<Database>,
  userId: string,
  since: number,
): Promise<void> {
  await db
    .deleteFrom('stationCredentials')
    .where('userId', '=', userId)
    .where('createdAt', '<', since)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('stations')
            .select('stations.id')
            .whereRef('stations.userId', '=', 'stationCredentials.userId')
            .whereRef('stations.name', '=', 'stationCredentials.stationName'),
        ),
      ),
    )
    .execute();
}
