// Read queries of stations for the public API.
import type { Kysely } from 'kysely';
import type { Database, StationRow } from '../../db/schema';
import { containsIgnoringCase } from './catalogue-reads';

export async function findStation(
  db: Kysely<Database>,
  id: string,
): Promise<(StationRow & { satDisplayName: string | null }) | undefined> {
  return db
    .selectFrom('stations')
    .leftJoin('satellites', 'satellites.name', 'stations.satellite')
    .selectAll('stations')
    .select('satellites.displayName as satDisplayName')
    .where('stations.id', '=', id)
    .executeTakeFirst();
}

export async function stationOwner(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('stations')
    .select('userId')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.userId;
}

export async function searchStations(db: Kysely<Database>, text: string, limit: number) {
  return db
    .selectFrom('stations')
    .select(['id', 'name', 'userId'])
    .where(containsIgnoringCase('name', text))
    .orderBy('name')
    .limit(limit)
    .execute();
}
