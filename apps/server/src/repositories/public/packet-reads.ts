// Read queries of packets and receptions for the public API. Every list is served by an index:
// packets(satellite, server_time), receptions(station_id, server_time), packets(server_time).
import type { Kysely } from 'kysely';
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

/** Packets a station received, newest first, older than `before` when given. */
export async function stationPackets(
  db: Kysely<Database>,
  stationId: string,
  before: number | null,
  limit: number,
): Promise<PacketWithName[]> {
  let ids = db.selectFrom('receptions').select('packetId').where('stationId', '=', stationId);
  if (before !== null) ids = ids.where('serverTime', '<', before);
  const page = await ids.orderBy('serverTime', 'desc').limit(limit).execute();
  if (page.length === 0) return [];
  const rows = await withDisplayName(db)
    .where(
      'packets.id',
      'in',
      page.map((p) => p.packetId),
    )
    .execute();
  return rows.sort((a, b) => b.serverTime - a.serverTime || (a.id < b.id ? 1 : -1));
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

/** Receptions of one station since a time, with the satellite position of each packet. */
export async function stationFramesSince(db: Kysely<Database>, stationId: string, sinceMs: number) {
  return db
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
    .orderBy('receptions.serverTime')
    .execute();
}

export interface ExportCursor {
  serverTime: number;
  id: string;
}

/** One keyset page of an export, oldest first: constant memory however large the range. */
export async function exportPage(
  db: Kysely<Database>,
  filter: { satellite?: string; stationId?: string; from?: number; to?: number },
  after: ExportCursor | null,
  limit: number,
): Promise<PacketRow[]> {
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
  if (after) {
    const cursor = after;
    q = q.where((eb) =>
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
