// The satellite catalogue as the seed, the catalogue imports (SatNOGS DB, live-API documents) and
// the decoder registry read and write it. Counters moved by the ingest are in packets.ts, element
// sets in element-sets.ts, reads of the public API in public/catalogue-reads.ts.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, SatellitesTable } from '../db/schema';

export async function listSatelliteNames(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('satellites').select('name').execute()).map((r) => r.name);
}

export async function isCatalogueEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('satellites').select('name').limit(1).executeTakeFirst();
  return row === undefined;
}

/** The satellites whose entry names a decoder. */
export async function listSatelliteDecoders(
  db: Kysely<Database>,
): Promise<{ name: string; decoder: string | null }[]> {
  return db
    .selectFrom('satellites')
    .select(['name', 'decoder'])
    .where('decoder', 'is not', null)
    .execute();
}

/** The epoch of the element set held for each of `names` that is stored. */
export async function heldElementSetEpochs(
  db: Kysely<Database>,
  names: readonly string[],
): Promise<Map<string, number | null>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('satellites')
    .select(['name', 'tleEpoch'])
    .where('name', 'in', names)
    .execute();
  return new Map(rows.map((r) => [r.name, r.tleEpoch]));
}

/** A catalogue entry's columns: all but the name and the counters the ingest keeps. */
export type SatelliteEntry = Omit<
  Insertable<SatellitesTable>,
  'name' | 'frames' | 'confirmedPackets' | 'lastPacketTime'
>;

/** Inserts the satellite with no packets yet, or updates an existing one's entry (counters kept). */
export async function upsertSatelliteEntry(
  db: Kysely<Database>,
  name: string,
  entry: SatelliteEntry,
): Promise<void> {
  await db
    .insertInto('satellites')
    .values({ name, ...entry, frames: 0, confirmedPackets: 0, lastPacketTime: null })
    .onConflict((oc) => oc.column('name').doUpdateSet(entry))
    .execute();
}

/** What the SatNOGS DB import compares its records with. */
export async function listSatelliteFacts(db: Kysely<Database>): Promise<
  {
    name: string;
    norad: number | null;
    status: string;
    configurations: string;
    launchDate: number | null;
    images: string;
  }[]
> {
  return db
    .selectFrom('satellites')
    .select(['name', 'norad', 'status', 'configurations', 'launchDate', 'images'])
    .execute();
}

export async function insertSatellite(
  db: Kysely<Database>,
  row: Insertable<SatellitesTable>,
): Promise<void> {
  await db.insertInto('satellites').values(row).execute();
}

export async function updateSatellite(
  db: Kysely<Database>,
  name: string,
  changes: Updateable<SatellitesTable>,
): Promise<void> {
  await db.updateTable('satellites').set(changes).where('name', '=', name).execute();
}
