// Read queries of the satellite catalogue for the public API.
import type { Kysely } from 'kysely';
import type { Database, SatelliteRow } from '../../db/schema';

export async function listSatellites(
  db: Kysely<Database>,
  filter: { status?: string; excludeStatuses?: readonly string[] },
): Promise<SatelliteRow[]> {
  let q = db.selectFrom('satellites').selectAll();
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.excludeStatuses?.length) q = q.where('status', 'not in', [...filter.excludeStatuses]);
  return q.orderBy('name').execute();
}

export async function findSatellite(
  db: Kysely<Database>,
  name: string,
): Promise<SatelliteRow | undefined> {
  return db.selectFrom('satellites').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function templatesOf(
  db: Kysely<Database>,
  names: readonly string[],
): Promise<Record<string, string>> {
  if (names.length === 0) return {};
  const rows = await db
    .selectFrom('satellites')
    .select(['name', 'webTemplate'])
    .where('name', 'in', [...names])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.webTemplate]));
}

/**
 * The newest decoded telemetry of a satellite (packets index on satellite, server_time); an
 * unverified frame's envelope is not telemetry.
 */
export async function lastTelemetry(
  db: Kysely<Database>,
  satellite: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('packets')
    .select('parsed')
    .where('satellite', '=', satellite)
    .where('parsed', 'is not', null)
    .where('unverified', '=', 0)
    .orderBy('serverTime', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.parsed ?? null;
}
