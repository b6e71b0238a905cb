// Read queries of stations for the public API.
import type { Kysely } from 'kysely';
import type { Database, StationRow } from '../../db/schema';
import { preparedRead } from './prepared';

const stationQuery = (db: Kysely<Database>, id: string) =>
  db
    .selectFrom('stations')
    .leftJoin('satellites', 'satellites.name', 'stations.satellite')
    .selectAll('stations')
    .select('satellites.displayName as satDisplayName')
    .where('stations.id', '=', id);

export async function findStation(
  db: Kysely<Database>,
  id: string,
): Promise<(StationRow & { satDisplayName: string | null }) | undefined> {
  return stationQuery(db, id).executeTakeFirst();
}

/** One station with its satellite's display name (prepared: /v1/station/{id}). */
export const stationById = preparedRead('public_station_by_id', stationQuery);

/** A station's pictures, oldest first (prepared: /v1/station/{id}). */
export const stationPictures = preparedRead('public_station_pictures', (db, stationId: string) =>
  db
    .selectFrom('stationPictures')
    .selectAll()
    .where('stationId', '=', stationId)
    .orderBy('createdAt', 'asc'),
);

export async function stationOwner(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('stations')
    .select('userId')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.userId;
}
