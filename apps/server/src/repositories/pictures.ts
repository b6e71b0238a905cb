// Station pictures: rows here, files under DATA_DIR/pictures (served at /pictures/).
import type { Picture } from '@tinygs/contracts';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/connect';
import type { Database, PictureRow } from '../db/schema';

export const PICTURE_STATUS = { pending: 0, approved: 1, rejected: -1 } as const;

export interface PictureFileNames {
  full: string;
  thumb: string;
  /** The same two as WebP, served instead of the JPEGs to browsers that accept WebP. */
  fullWebp: string;
  thumbWebp: string;
}

/** File names of a picture and its thumbnail inside DATA_DIR/pictures, JPEG and WebP. */
export function pictureFiles(shortId: string): PictureFileNames {
  return {
    full: `${shortId}.jpg`,
    thumb: `${shortId}_thumb.jpg`,
    fullWebp: `${shortId}.webp`,
    thumbWebp: `${shortId}_thumb.webp`,
  };
}

/** The public URL of a picture (the thumbnail is the same with `_thumb` before the extension). */
export function pictureSrc(shortId: string): string {
  return `/pictures/${pictureFiles(shortId).full}`;
}

export function pictureThumbSrc(shortId: string): string {
  return `/pictures/${pictureFiles(shortId).thumb}`;
}

export function toPicture(
  row: Pick<PictureRow, 'id' | 'status' | 'size' | 'origName' | 'type'>,
): Picture {
  return {
    status: row.status,
    size: row.size,
    origName: row.origName,
    type: row.type,
    shortId: row.id,
    src: pictureSrc(row.id),
  };
}

export interface NewPicture {
  id: string;
  stationId: string;
  size: number;
  origName: string;
  type: string;
  createdAt: number;
}

/**
 * Stores a pending picture unless the station already has `max` pending and approved ones; false
 * when it is full. Count and insert are one statement, and on PostgreSQL the station's row is
 * locked first, so two uploads racing for the last place cannot both get it (SQLite runs one
 * writing statement at a time).
 */
export async function insertPictureIfRoom(
  database: Pick<Db, 'db' | 'dialect'>,
  picture: NewPicture,
  max: number,
): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') {
      await trx
        .selectFrom('stations')
        .select('id')
        .where('id', '=', picture.stationId)
        .forUpdate()
        .execute();
    }
    const p = picture;
    // Parameters of an INSERT ... SELECT are typed from the casts, not from the target columns.
    const result = await sql`
      insert into station_pictures (id, station_id, status, size, orig_name, type, created_at)
      select cast(${p.id} as text), cast(${p.stationId} as text),
        cast(${PICTURE_STATUS.pending} as integer), cast(${p.size} as integer),
        cast(${p.origName} as text), cast(${p.type} as text), cast(${p.createdAt} as bigint)
      where (select count(*) from station_pictures
             where station_id = ${p.stationId} and status >= 0) < ${max}`.execute(trx);
    return (result.numAffectedRows ?? 0n) > 0n;
  });
}

/** Pictures that count against the per-station limit: pending and approved ones. */
export async function countActivePictures(
  db: Kysely<Database>,
  stationId: string,
): Promise<number> {
  const row = await db
    .selectFrom('stationPictures')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('stationId', '=', stationId)
    .where('status', '>=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listStationPictures(
  db: Kysely<Database>,
  stationId: string,
): Promise<PictureRow[]> {
  return db
    .selectFrom('stationPictures')
    .selectAll()
    .where('stationId', '=', stationId)
    .orderBy('createdAt', 'asc')
    .execute();
}

export async function findPicture(
  db: Kysely<Database>,
  id: string,
): Promise<PictureRow | undefined> {
  return db.selectFrom('stationPictures').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A picture's status and its station's owner; undefined when either is gone. */
export async function findPictureAccess(
  db: Kysely<Database>,
  id: string,
): Promise<{ status: number; ownerId: string } | undefined> {
  return db
    .selectFrom('stationPictures')
    .innerJoin('stations', 'stations.id', 'stationPictures.stationId')
    .select(['stationPictures.status', 'stations.userId as ownerId'])
    .where('stationPictures.id', '=', id)
    .executeTakeFirst();
}

export async function deletePicture(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('stationPictures').where('id', '=', id).execute();
}

export async function deleteStationPictures(
  db: Kysely<Database>,
  stationId: string,
): Promise<void> {
  await db.deleteFrom('stationPictures').where('stationId', '=', stationId).execute();
}

export async function listPendingPictures(db: Kysely<Database>): Promise<PictureRow[]> {
  return db
    .selectFrom('stationPictures')
    .selectAll()
    .where('status', '=', PICTURE_STATUS.pending)
    .orderBy('createdAt', 'asc')
    .execute();
}

export async function setPictureStatus(
  db: Kysely<Database>,
  id: string,
  status: number,
): Promise<boolean> {
  const result = await db
    .updateTable('stationPictures')
    .set({ status })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The newest approved pictures of stations that still exist, newest first. */
export async function listRecentApprovedPictures(
  db: Kysely<Database>,
  limit: number,
): Promise<PictureRow[]> {
  return db
    .selectFrom('stationPictures')
    .innerJoin('stations', 'stations.id', 'stationPictures.stationId')
    .selectAll('stationPictures')
    .where('stationPictures.status', '=', PICTURE_STATUS.approved)
    .orderBy('stationPictures.createdAt', 'desc')
    .orderBy('stationPictures.id', 'desc')
    .limit(limit)
    .execute();
}
