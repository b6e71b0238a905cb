// Personal API tokens: read tokens a user names for scripts and dashboards. Only the SHA-256 of a
// token is stored, with its first characters to tell tokens apart (docs/SECURITY.md).
import type { Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', MS, (c) => c.notNull())
    .addColumn('last_used_at', MS)
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
