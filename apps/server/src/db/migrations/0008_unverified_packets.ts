// Packets whose frame failed its format's checks (docs/DECODERS.md, "Declaring checks"): stored
// with the envelope only (satellite, transmitter power) and flagged, so that nothing that trusts
// decoded values reads them. A constant default: a metadata-only change on both dialects.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('packets')
    .addColumn('unverified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('packets').dropColumn('unverified').execute();
}
