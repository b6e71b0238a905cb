// Read queries of stations for the public API.
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect';
import type { Database, PictureRow, StationRow } from '../../db/schema';
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

/**
 * One station with its satellite's display name and its pictures, oldest first, in one statement
 * (prepared: /v1/station/{id}): a row per picture, or one row with null picture columns. One round
 * trip per page build rather than two (on PostgreSQL each is a pooled query).
 */
const stationPageRows = preparedRead('public_station_page', (db, id: string) =>
  stationQuery(db, id)
    .leftJoin('stationPictures', 'stationPictures.stationId', 'stations.id')
    .select([
      'stationPictures.id as pictureId',
      'stationPictures.status as pictureStatus',
      'stationPictures.size as pictureSize',
      'stationPictures.origName as pictureOrigName',
      'stationPictures.type as pictureType',
    ])
    .orderBy('stationPictures.createdAt')
    .orderBy('stationPictures.id'),
);

/** A station's page: its row (undefined when unknown) and its pictures, oldest first. */
export async function stationPage(
  database: Db,
  id: string,
): Promise<{
  station: (StationRow & { satDisplayName: string | null }) | undefined;
  pictures: Pick<PictureRow, 'id' | 'status' | 'size' | 'origName' | 'type'>[];
}> {
  const rows = await stationPageRows(database, id);
  const first = rows[0];
  if (!first) return { station: undefined, pictures: [] };
  // The picture columns ride along on the station's row; its readers take the fields they name.
  const pictures = [];
  for (const r of rows)
    if (r.pictureId !== null)
      pictures.push({
        id: r.pictureId,
        status: r.pictureStatus ?? 0,
        size: r.pictureSize ?? 0,
        origName: r.pictureOrigName ?? '',
        type: r.pictureType ?? '',
      });
  return { station: first, pictures };
}

export async function stationOwner(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('stations')
    .select('userId')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.userId;
}
