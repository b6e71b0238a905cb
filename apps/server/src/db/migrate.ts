// Runs the numbered migrations in order. They are bundled in code (not read from a folder at run
// time) so the same list runs under tsx, in tests and in any packaging.
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_initial';
import * as m0002 from './migrations/0002_drop_frame_hash_index';
import * as m0005 from './migrations/0005_station_credentials';
import * as m0006 from './migrations/0006_pending_email';
import * as m0007 from './migrations/0007_search_index';
import * as m0008 from './migrations/0008_unverified_packets';
import * as m0009 from './migrations/0009_element_sets';
import * as m0010 from './migrations/0010_satnogs_forwarding';
import * as m0011 from './migrations/0011_api_tokens';
import * as m0012 from './migrations/0012_station_health';
import * as m0013 from './migrations/0013_offline_alerts';
import * as m0014 from './migrations/0014_telemetry_series';
import * as m0015 from './migrations/0015_leaderboards';
import * as m0016 from './migrations/0016_partition_packets';
import type { Database } from './schema';

const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_drop_frame_hash_index': m0002,
  '0005_station_credentials': m0005,
  '0006_pending_email': m0006,
  '0007_search_index': m0007,
  '0008_unverified_packets': m0008,
  '0009_element_sets': m0009,
  '0010_satnogs_forwarding': m0010,
  '0011_api_tokens': m0011,
  '0012_station_health': m0012,
  '0013_offline_alerts': m0013,
  '0014_telemetry_series': m0014,
  '0015_leaderboards': m0015,
  '0016_partition_packets': m0016,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/**
 * On PostgreSQL the bookkeeping tables are pinned to the connection's current schema: Kysely
 * otherwise looks for them in any schema, and another schema's tables (a second deployment or a
 * test suite sharing the database) would be taken for ours.
 */
async function currentSchema(db: Kysely<Database>): Promise<string | undefined> {
  try {
    const { rows } = await sql<{
      schema: string | null;
    }>`select current_schema() as schema`.execute(db);
    return rows[0]?.schema ?? undefined;
  } catch {
    return undefined; // SQLite has no schemas
  }
}

export async function migrateToLatest(
  db: Kysely<Database>,
  dialect?: 'sqlite' | 'postgres',
): Promise<string[]> {
  const migrationTableSchema = dialect === 'sqlite' ? undefined : await currentSchema(db);
  // Numbers are given out ahead to features built side by side, so a later number can be released
  // before an earlier one: a database that already ran 0011 still runs a newly released 0006.
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(),
    migrationTableSchema,
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
