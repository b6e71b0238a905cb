// Receptions of one frame are merged in memory (a 60-s index of recent frame hashes), so nothing
// reads packets by frame_hash any more; its index of random keys only slowed every insert.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('packets_hash_time_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('packets_hash_time_idx')
    .on('packets')
    .columns(['frame_hash', 'server_time'])
    .execute();
}
