// Station-bound MQTT credentials: a station created through a one-time code gets a password of
// its own, which the broker accepts for that station's topics only (docs/SECURITY.md).
import type { Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('station_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('station_name', 'text', (c) => c.notNull())
    .addColumn('password_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', MS, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('station_credentials_user_station_idx')
    .on('station_credentials')
    .columns(['user_id', 'station_name'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('station_credentials').execute();
}
