// Station health: every online/offline transition with its cause, and the per-day uptime that
// transitions older than the retention window are folded into (docs/OPERATIONS.md).
import type { Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('station_status_events')
    .addColumn('station_id', 'text', (c) =>
      c.notNull().references('stations.id').onDelete('cascade'),
    )
    .addColumn('at', MS, (c) => c.notNull())
    .addColumn('online', 'integer', (c) => c.notNull())
    .addColumn('cause', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('station_status_events_station_at_idx')
    .on('station_status_events')
    .columns(['station_id', 'at'])
    .execute();
  await db.schema
    .createIndex('station_status_events_at_idx')
    .on('station_status_events')
    .column('at')
    .execute();

  await db.schema
    .createTable('station_uptime_daily')
    .addColumn('station_id', 'text', (c) =>
      c.notNull().references('stations.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('online_ms', MS, (c) => c.notNull())
    .addColumn('known_ms', MS, (c) => c.notNull())
    .addColumn('outages', 'integer', (c) => c.notNull())
    .addColumn('online_at_end', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('station_uptime_daily_pk', ['station_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('station_uptime_daily').execute();
  await db.schema.dropTable('station_status_events').execute();
}
