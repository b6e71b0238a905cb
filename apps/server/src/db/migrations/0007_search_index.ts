// Indexes for the public search (GET /v1/search: a case-insensitive substring of a station's name,
// a satellite's name or display name). SQLite: FTS5 tables with the trigram tokenizer over the
// stations and satellites tables (external content, kept in step by triggers). PostgreSQL: trigram
// GIN indexes (pg_trgm) on lower(name), which LIKE '%...%' uses directly and which PostgreSQL
// maintains itself. docs/ARCHITECTURE.md, "Search".
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Any fixed number: serialises CREATE EXTENSION between concurrent migrations of one database. */
const EXTENSION_LOCK = 74_007_001;

export const TRGM_MISSING =
  'The search index needs the PostgreSQL extension pg_trgm: install the contrib package of ' +
  'your PostgreSQL, or have a superuser run CREATE EXTENSION pg_trgm in this database';

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An indexed FTS5 copy of `columns` of `table`, and the triggers that keep it current. */
async function ftsIndex(db: Kysely<unknown>, table: string, columns: string[]): Promise<void> {
  const fts = `${table}_search`;
  const cols = columns.join(', ');
  const values = (row: 'new' | 'old') => columns.map((c) => `${row}.${c}`).join(', ');
  const changed = columns.map((c) => `old.${c} is not new.${c}`).join(' or ');
  const statements = [
    `create virtual table ${fts} using fts5(${cols}, content='${table}', content_rowid='rowid', tokenize='trigram')`,
    `create trigger ${fts}_insert after insert on ${table} begin
       insert into ${fts}(rowid, ${cols}) values (new.rowid, ${values('new')});
     end`,
    `create trigger ${fts}_delete after delete on ${table} begin
       insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.rowid, ${values('old')});
     end`,
    // Only a change of an indexed column: the counters of both tables change all the time.
    `create trigger ${fts}_update after update of ${cols} on ${table} when ${changed} begin
       insert into ${fts}(${fts}, rowid, ${cols}) values ('delete', old.rowid, ${values('old')});
       insert into ${fts}(rowid, ${cols}) values (new.rowid, ${values('new')});
     end`,
    `insert into ${fts}(${fts}) values ('rebuild')`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The schema holding pg_trgm, created in `public` (or the current schema) when missing. */
async function trigramSchema(db: Kysely<unknown>): Promise<string> {
  await sql`select pg_advisory_xact_lock(${EXTENSION_LOCK})`.execute(db);
  const installed = async () =>
    (
      await sql<{ schema: string }>`
        select n.nspname as schema from pg_extension e
        join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await installed();
  if (found) return found;
  const { rows } = await sql<{ available: boolean; public: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available,
      coalesce(has_schema_privilege('public', 'CREATE'), false) as public`.execute(db);
  if (!rows[0]?.available) throw new Error(TRGM_MISSING);
  // Outside the application's own schema when possible: one installation serves every schema of
  // the database, and dropping a schema then never takes it (or other schemas' indexes) along.
  if (rows[0].public)
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  else await sql`create extension if not exists pg_trgm`.execute(db);
  const created = await installed();
  if (!created) throw new Error(TRGM_MISSING);
  return created;
}

const PG_INDEXES = [
  ['stations_name_trgm_idx', 'stations', 'name'],
  ['satellites_name_trgm_idx', 'satellites', 'name'],
  ['satellites_display_name_trgm_idx', 'satellites', 'display_name'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    const schema = await trigramSchema(db);
    for (const [index, table, column] of PG_INDEXES) {
      await sql`create index ${sql.id(index)} on ${sql.id(table)}
        using gin (lower(${sql.id(column)}) ${sql.id(schema, 'gin_trgm_ops')})
        with (fastupdate = off)`.execute(db);
    }
    return;
  }
  await ftsIndex(db, 'stations', ['name']);
  await ftsIndex(db, 'satellites', ['name', 'display_name']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const [index] of PG_INDEXES) await sql`drop index if exists ${sql.id(index)}`.execute(db);
    return;
  }
  for (const fts of ['stations_search', 'satellites_search']) {
    for (const trigger of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger if exists ${fts}_${trigger}`).execute(db);
    await sql.raw(`drop table if exists ${fts}`).execute(db);
  }
}
