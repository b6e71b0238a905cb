// Offline alerts: the owner's choice (on/off, after how long), each outage the job has decided on
// (alerted, or passed over because the day's alerts were used up) and whether its back note went
// out, and the alert mails per owner and UTC day (docs/OPERATIONS.md).
import type { Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('offline_alert_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('delay_minutes', 'integer', (c) => c.notNull())
    .addColumn('enabled_at', MS, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('offline_alerts')
    .addColumn('station_id', 'text', (c) =>
      c.notNull().references('stations.id').onDelete('cascade'),
    )
    .addColumn('outage_at', MS, (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('alerted_at', MS)
    .addColumn('back_at', MS)
    .addColumn('back_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('offline_alerts_pk', ['station_id', 'outage_at'])
    .execute();
  await db.schema
    .createIndex('offline_alerts_back_at_idx')
    .on('offline_alerts')
    .columns(['back_at', 'alerted_at'])
    .execute();

  await db.schema
    .createTable('offline_alert_counts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('offline_alert_counts_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('offline_alert_counts').execute();
  await db.schema.dropTable('offline_alerts').execute();
  await db.schema.dropTable('offline_alert_preferences').execute();
}
