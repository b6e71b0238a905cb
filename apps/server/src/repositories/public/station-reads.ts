// Read queries of stations for the public API.
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect';
import type { Database, PictureRow, StationRow } from '../../db/schema';
import { preparedRead } from './prepared';

/** Stations with their satellite's display name. */
const withSatellite = (db: Kysely<Database>) =>
  db
    .selectFrom('stations')
    .leftJoin('satellites', 'satellites.name', 'stations.satellite')
    .selectAll('stations')
    .select('satellites.displayName as satDisplayName');

const stationQuery = (db: Kysely<Database>, id: string) =>
  withSatellite(db).where('stations.id', '=', id);

export async function findStation(
  db: Kysely<Database>,
  id: string,
): Promise<(StationRow & { satDisplayName: string | null }) | undefined> {
  return stationQuery(db, id).executeTakeFirst();
}

/** Stations with their satellite's display name and their pictures: a row per picture, or one. */
const pageQuery = (db: Kysely<Database>) =>
  withSatellite(db)
    .leftJoin('stationPictures', 'stationPictures.stationId', 'stations.id')
    .select([
      'stationPictures.id as pictureId',
      'stationPictures.status as pictureStatus',
      'stationPictures.size as pictureSize',
      'stationPictures.origName as pictureOrigName',
      'stationPictures.type as pictureType',
    ]);

type PageRow = Awaited<ReturnType<ReturnType<typeof pageQuery>['execute']>>[number];

/** What a station's page is read from: its row and its pictures, oldest first. */
export interface StationPageRead {
  station: StationRow & { satDisplayName: string | null };
  pictures: Pick<PictureRow, 'id' | 'status' | 'size' | 'origName' | 'type'>[];
}

/**
 * One station's page in one statement (prepared: /v1/station/{id}); one round trip per page build
 * rather than one for the station and one for its pictures (on PostgreSQL each a pooled query).
 */
const stationPageRows = preparedRead('public_station_page', (db, id: string) =>
  pageQuery(db)
    .where('stations.id', '=', id)
    .orderBy('stationPictures.createdAt')
    .orderBy('stationPictures.id'),
);

/** Rows of one or more stations (each station's together, its pictures oldest first) as pages. */
function pagesOf(rows: readonly PageRow[]): Map<string, StationPageRead> {
  const pages = new Map<string, StationPageRead>();
  for (const r of rows) {
    let page = pages.get(r.id);
    // The picture columns ride along on the station's row; its readers take the fields they name.
    if (!page) pages.set(r.id, (page = { station: r, pictures: [] }));
    if (r.pictureId !== null)
      page.pictures.push({
        id: r.pictureId,
        status: r.pictureStatus ?? 0,
        size: r.pictureSize ?? 0,
        origName: r.pictureOrigName ?? '',
        type: r.pictureType ?? '',
      });
  }
  return pages;
}

/** A station's page, undefined when there is no such station. */
export async function stationPage(database: Db, id: string): Promise<StationPageRead | undefined> {
  return pagesOf(await stationPageRows(database, id)).get(id);
}

/** The pages of these stations (those that exist) in one statement: refreshes of kept pages. */
export async function stationPages(
  { db }: Db,
  ids: readonly string[],
): Promise<Map<string, StationPageRead>> {
  if (ids.length === 0) return new Map();
  const rows = await pageQuery(db)
    .where('stations.id', 'in', ids)
    .orderBy('stations.id')
    .orderBy('stationPictures.createdAt')
    .orderBy('stationPictures.id')
    .execute();
  return pagesOf(rows);
}

export async function stationOwner(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('stations')
    .select('userId')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.userId;
}
