// Element-set refresh (docs/OPERATIONS.md, "Element sets"): each satellite records the epoch and
// the source of the set it holds, and each source its HTTP validators for conditional requests.
import { sql, type Kysely } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('satellites').addColumn('tle_epoch', MS).execute();
  await db.schema.alterTable('satellites').addColumn('tle_source', 'text').execute();
  await db.schema
    .createTable('element_set_sources')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    /** the catalogue's NORAD ids the validators were earned with (a new satellite refetches) */
    .addColumn('catalogue_key', 'text')
    .addColumn('checked_at', MS, (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();

  // Sets already held came with the catalogue (seed or `satellites import`). SGP4 is loaded only
  // here: every CLI command runs the migrations, few need it.
  const { parseTle } = await import('@tinygs/orbit');
  const { rows } = await sql<{
    name: string;
    tle: string | null;
  }>`select name, tle from satellites where tle is not null`.execute(db);
  for (const row of rows) {
    const epoch = epochOf(row.tle, parseTle);
    if (epoch === null) continue;
    await sql`update satellites set tle_epoch = ${epoch}, tle_source = ${'catalogue'} where name = ${row.name}`.execute(
      db,
    );
  }
}

function epochOf(
  text: string | null,
  parseTle: (lines: [string, string, string]) => { epoch: Date },
): number | null {
  try {
    const lines: unknown = JSON.parse(text ?? 'null');
    if (!Array.isArray(lines) || lines.length !== 3) return null;
    return parseTle(lines as [string, string, string]).epoch.getTime();
  } catch {
    return null;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('element_set_sources').execute();
  await db.schema.alterTable('satellites').dropColumn('tle_source').execute();
  await db.schema.alterTable('satellites').dropColumn('tle_epoch').execute();
}
