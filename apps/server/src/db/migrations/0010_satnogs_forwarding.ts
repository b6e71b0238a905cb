// Forwarding frames to SatNOGS DB (docs/OPERATIONS.md, "Forwarding to SatNOGS DB"): the satellites
// whose frames are forwarded (opt-in, catalogue), the stations whose owners keep theirs back
// (opt-out, edit form), and the outbox of receptions still to send. A reception is queued in the
// ingest batch that stores it and leaves the outbox once SatNOGS DB accepted it (or refused it for
// good); its key makes queuing it twice a no-op.
import type { Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('satellites')
    .addColumn('satnogs_forward', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stations')
    .addColumn('satnogs_opt_out', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('satnogs_outbox')
    .addColumn('packet_id', 'text', (c) => c.notNull())
    .addColumn('station_id', 'text', (c) => c.notNull())
    .addColumn('queued_at', MS, (c) => c.notNull())
    .addColumn('next_attempt_at', MS, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('satnogs_outbox_pk', ['packet_id', 'station_id'])
    .execute();
  await db.schema
    .createIndex('satnogs_outbox_due_idx')
    .on('satnogs_outbox')
    .column('next_attempt_at')
    .execute();
  await db.schema
    .createIndex('satnogs_outbox_queued_idx')
    .on('satnogs_outbox')
    .column('queued_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('satnogs_outbox').execute();
  await db.schema.alterTable('stations').dropColumn('satnogs_opt_out').execute();
  await db.schema.alterTable('satellites').dropColumn('satnogs_forward').execute();
}
