// Read queries of packets and receptions for the public API. Every list is served by an index:
// packets(satellite, server_time), receptions(station_id, server_time), packets(server_time).
// On PostgreSQL both tables are month partitions (migration 0016): reads by packet id name the id
// itself so that the planner reads one month.
import { PACKET_MERGE_WINDOW_MS } from '@tinygs/contracts';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/connect';
import type { Database, PacketRow, ReceptionRow } from '../../db/schema';
import { preparedRead } from './prepared';

export type PacketWithName = PacketRow & { satDisplayName: string | null };

function withDisplayName(db: Kysely<Database>) {
  return db
    .selectFrom('packets')
    .leftJoin('satellites', 'satellites.name', 'packets.satellite')
    .selectAll('packets')
    .select('satellites.displayName as satDisplayName');
}

export async function latestPackets(
  db: Kysely<Database>,
  satellite: string | null,
  limit: number,
): Promise<PacketWithName[]> {
  let q = withDisplayName(db);
  if (satellite) q = q.where('packets.satellite', '=', satellite);
  return q
    .orderBy('packets.serverTime', 'desc')
    .orderBy('packets.id', 'desc')
    .limit(limit)
    .execute();
}

export async function firstPackets(
  db: Kysely<Database>,
  satellite: string,
  limit: number,
): Promise<PacketWithName[]> {
  return withDisplayName(db)
    .where('packets.satellite', '=', satellite)
    .orderBy('packets.serverTime', 'asc')
    .orderBy('packets.id', 'asc')
    .limit(limit)
    .execute();
}

export async function countPacketsUpTo(
  db: Kysely<Database>,
  satellite: string,
  limit: number,
): Promise<number> {
  // Ordered along packets(satellite, server_time): otherwise PostgreSQL may pick a sequential
  // scan, which reads the whole table for a satellite with fewer than `limit` packets.
  const rows = await db
    .selectFrom('packets')
    .select('id')
    .where('satellite', '=', satellite)
    .orderBy('serverTime')
    .limit(limit)
    .execute();
  return rows.length;
}

/**
 * Packets a station received, newest first by the packet's serverTime, older than `before` when
 * given: the cursor is the serverTime of the last packet a client already has, so pages join up
 * without a gap. A station's reception of a merged packet is stored when it arrived, up to the
 * merge window after the packet's serverTime, so receptions are read newest first along
 * receptions(station_id, server_time) from `before` + window until no unread one can still
 * belong to the page (a reception is never older than its packet).
 */
export async function stationPackets(
  db: Kysely<Database>,
  stationId: string,
  before: number | null,
  limit: number,
): Promise<PacketWithName[]> {
  const found: PacketWithName[] = [];
  const chunk = limit + 32;
  let cursor: { serverTime: number; packetId: string } | null = null;
  for (;;) {
    let q = db
      .selectFrom('receptions')
      .select(['packetId', 'serverTime'])
      .where('stationId', '=', stationId);
    if (cursor) {
      const c: { serverTime: number; packetId: string } = cursor;
      // The bound alone first: the index range starts there instead of at the station's newest.
      q = q
        .where('serverTime', '<=', c.serverTime)
        .where((eb) =>
          eb.or([
            eb('serverTime', '<', c.serverTime),
            eb.and([eb('serverTime', '=', c.serverTime), eb('packetId', '<', c.packetId)]),
          ]),
        );
    } else if (before !== null) {
      q = q.where('serverTime', '<', before + PACKET_MERGE_WINDOW_MS);
    }
    const receptions = await q
      .orderBy('serverTime', 'desc')
      .orderBy('packetId', 'desc')
      .limit(chunk)
      .execute();
    if (receptions.length > 0) {
      let rows = await withDisplayName(db)
        .where(
          'packets.id',
          'in',
          receptions.map((r) => r.packetId),
        )
        .execute();
      if (before !== null) rows = rows.filter((r) => r.serverTime < before);
      found.push(...rows);
      found.sort((a, b) => b.serverTime - a.serverTime || (a.id < b.id ? 1 : -1));
      found.length = Math.min(found.length, limit);
    }
    const last = receptions.at(-1);
    if (!last || receptions.length < chunk) return found;
    // Every unread packet is at most as new as `last` was received: the page is complete when
    // its oldest packet is newer than that.
    if (found.length === limit && (found.at(-1)?.serverTime ?? 0) > last.serverTime) return found;
    cursor = { serverTime: last.serverTime, packetId: last.packetId };
  }
}

export async function findPacket(
  db: Kysely<Database>,
  id: string,
): Promise<PacketWithName | undefined> {
  return withDisplayName(db).where('packets.id', '=', id).executeTakeFirst();
}

const packetWithTemplateQuery = (db: Kysely<Database>, id: string) =>
  withDisplayName(db).select('satellites.webTemplate as template').where('packets.id', '=', id);

/** One packet with its satellite's display name and web template (prepared: /v1/packet/{id}). */
export const packetWithTemplate = preparedRead(
  'public_packet_with_template',
  packetWithTemplateQuery,
);

const receptionsQuery = (db: Kysely<Database>, packetId: string) =>
  db.selectFrom('receptions').selectAll().where('packetId', '=', packetId).orderBy('serverTime');

export async function receptionsOf(
  db: Kysely<Database>,
  packetId: string,
): Promise<ReceptionRow[]> {
  return receptionsQuery(db, packetId).execute();
}

/** The receptions of one packet, oldest first (prepared: /v1/packet/{id}). */
export const packetReceptions = preparedRead('public_packet_receptions', receptionsQuery);

// Every column of a reception under the key a row of receptionsOf has: the JSON objects built in
// PostgreSQL parse straight into ReceptionRow. A Record so a new column cannot be left out.
const RECEPTION_KEYS: Record<keyof ReceptionRow, true> = {
  packetId: true,
  stationId: true,
  userId: true,
  serverTime: true,
  lat: true,
  lng: true,
  distance: true,
  elevation: true,
  azimuth: true,
  usecTime: true,
  doppler: true,
  fDoppler: true,
  frequencyOffset: true,
  crcError: true,
  rssi: true,
  snr: true,
  frequencyError: true,
};

/**
 * PostgreSQL only: the packet row of packetWithTemplate plus its receptions as a JSON array, oldest
 * first like receptionsOf, in one statement. bigint and double precision values come out of JSON
 * as the same numbers the row path gives (all below 2^53; float8 text is shortest round-trip).
 */
export const packetDetailQuery = (db: Kysely<Database>, id: string) =>
  packetWithTemplateQuery(db, id).select((eb) =>
    eb
      .selectFrom('receptions as r')
      .select(
        sql<ReceptionRow[]>`coalesce(json_agg(json_build_object(${sql.join(
          (Object.keys(RECEPTION_KEYS) as (keyof ReceptionRow)[]).map(
            (key) => sql`${sql.lit(key)}, ${sql.ref(`r.${key}`)}`,
          ),
        )}) order by ${sql.ref('r.serverTime')}), '[]'::json)`.as('list'),
      )
      // The id itself, not a reference to packets.id: on month partitions (migration 0016) the
      // planner then reads the receptions of one month only.
      .where('r.packetId', '=', id)
      .as('receptions'),
  );

const packetDetailPostgres = preparedRead('public_packet_detail', packetDetailQuery);

export type PacketWithTemplate = PacketWithName & { template: string | null };

/**
 * One packet with its template and receptions (/v1/packet/{id}). PostgreSQL: one prepared
 * statement, so one round trip and one pool checkout. SQLite: the two prepared statements, which
 * run in process and beat building and parsing a JSON array.
 */
export async function packetDetail(
  database: Db,
  id: string,
): Promise<{ packet: PacketWithTemplate; receptions: ReceptionRow[] } | undefined> {
  if (database.dialect === 'postgres') {
    const [row] = await packetDetailPostgres(database, id);
    return row ? { packet: row, receptions: row.receptions ?? [] } : undefined;
  }
  const [[packet], receptions] = await Promise.all([
    packetWithTemplate(database, id),
    packetReceptions(database, id),
  ]);
  return packet ? { packet, receptions } : undefined;
}

/** The station's newest `limit` receptions since `sinceMs`, oldest first. */
export async function stationFramesSince(
  db: Kysely<Database>,
  stationId: string,
  sinceMs: number,
  limit: number,
) {
  const newest = await db
    .selectFrom('receptions')
    .innerJoin('packets', 'packets.id', 'receptions.packetId')
    .select([
      'receptions.serverTime',
      'packets.satellite',
      'packets.satLat',
      'packets.satLng',
      'packets.satAlt',
    ])
    .where('receptions.stationId', '=', stationId)
    .where('receptions.serverTime', '>=', sinceMs)
    .orderBy('receptions.serverTime', 'desc')
    .limit(limit)
    .execute();
  return newest.reverse();
}

export interface ExportCursor {
  serverTime: number;
  id: string;
}

/** One keyset page of an export, oldest first: constant memory however large the range. */
type ExportFilter = { satellite?: string; stationId?: string; from?: number; to?: number };

function exportQuery(db: Kysely<Database>, filter: ExportFilter) {
  let q = db.selectFrom('packets').selectAll('packets');
  if (filter.stationId) {
    q = q.where('packets.id', 'in', (eb) =>
      eb
        .selectFrom('receptions')
        .select('receptions.packetId')
        .where('receptions.stationId', '=', filter.stationId as string),
    );
  }
  if (filter.satellite) q = q.where('packets.satellite', '=', filter.satellite);
  if (filter.from !== undefined) q = q.where('packets.serverTime', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('packets.serverTime', '<=', filter.to);
  return q;
}

/** The row at 0-based `index` of the export order, if the range has that many. */
export async function exportRowAt(
  db: Kysely<Database>,
  filter: ExportFilter,
  index: number,
): Promise<{ serverTime: number } | undefined> {
  return exportQuery(db, filter)
    .clearSelect()
    .select('packets.serverTime')
    .orderBy('packets.serverTime', 'asc')
    .orderBy('packets.id', 'asc')
    .offset(index)
    .limit(1)
    .executeTakeFirst();
}

export async function exportPage(
  db: Kysely<Database>,
  filter: ExportFilter,
  after: ExportCursor | null,
  limit: number,
): Promise<PacketRow[]> {
  let q = exportQuery(db, filter);
  if (after) {
    const cursor = after;
    // The bound alone first, so the index range starts at the cursor (the OR below is no range).
    q = q
      .where('packets.serverTime', '>=', cursor.serverTime)
      .where((eb) =>
        eb.or([
          eb('packets.serverTime', '>', cursor.serverTime),
          eb.and([
            eb('packets.serverTime', '=', cursor.serverTime),
            eb('packets.id', '>', cursor.id),
          ]),
        ]),
      );
  }
  return q.orderBy('packets.serverTime', 'asc').orderBy('packets.id', 'asc').limit(limit).execute();
}
