// Telemetry over time: every numeric field of a satellite's decoded packets as a series, kept by
// the ingest in the batch that stores the packets (docs/ARCHITECTURE.md, "Telemetry series").
// - telemetry_fields: the fields a satellite has (at most TELEMETRY_MAX_FIELDS_PER_SATELLITE),
//   with their first and newest sample time and sample count;
// - telemetry_samples: one value per packet and field (at most one per second), kept TELEMETRY_RAW_RETENTION_DAYS before
//   the field's newest sample;
// - telemetry_rollups: min, max, sum and count per hour (kept TELEMETRY_HOUR_RETENTION_DAYS) and
//   per UTC day (kept).
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('telemetry_fields')
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('first_at', MS, (c) => c.notNull())
    .addColumn('last_at', MS, (c) => c.notNull())
    .addColumn('samples', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('telemetry_fields_pk', ['satellite', 'field'])
    .execute();

  // One sample per field and second (repositories/telemetry.ts). On SQLite the key is the table itself (WITHOUT ROWID: one
  // b-tree to write per sample, and a range read walks it in order).
  await db.schema
    .createTable('telemetry_samples')
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('at', MS, (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('telemetry_samples_pk', ['satellite', 'field', 'at'])
    .$call((t) => (isPostgres(db) ? t : t.modifyEnd(sql`without rowid`)))
    .execute();

  await db.schema
    .createTable('telemetry_rollups')
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('bucket', 'text', (c) => c.notNull()) // hour | day
    .addColumn('start', MS, (c) => c.notNull())
    .addColumn('min', 'double precision', (c) => c.notNull())
    .addColumn('max', 'double precision', (c) => c.notNull())
    .addColumn('sum', 'double precision', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('telemetry_rollups_pk', ['satellite', 'field', 'bucket', 'start'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('telemetry_rollups').execute();
  await db.schema.dropTable('telemetry_samples').execute();
  await db.schema.dropTable('telemetry_fields').execute();
}
