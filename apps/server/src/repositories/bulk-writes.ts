// Bulk updates and upserts of the ingest batch with one JSON parameter: the rows travel as a JSON
// array that the database unpacks (SQLite json_each, PostgreSQL json_to_recordset), so the statement
// stays short however many stations a batch touches. Meant for narrow rows: SQLite re-reads the
// row's JSON for every column. Column names always come from code, never from input.
import { SqliteAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';

export function isSqlite(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export type SqlType = 'text' | 'integer' | 'bigint' | 'double precision';

/** A column of the JSON rows: snake_case name and its SQL type. */
export type JsonColumn = readonly [name: string, type: SqlType];

const COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;

function checked(columns: readonly JsonColumn[]): readonly JsonColumn[] {
  for (const [name] of columns) {
    if (!COLUMN_NAME.test(name)) throw new Error(`not a column name: ${name}`);
  }
  return columns;
}

/**
 * A row source `(SELECT ... ) AS alias` with one typed column per entry, read from the JSON array.
 * Column names come from code, never from input (checked above).
 */
export function jsonRowSource(
  db: Kysely<Database>,
  rows: readonly object[],
  columns: readonly JsonColumn[],
  alias: string,
): RawBuilder<unknown> {
  const json = JSON.stringify(rows);
  const cols = checked(columns);
  if (isSqlite(db)) {
    const select = cols.map(([name]) => `value->>'${name}' AS ${name}`).join(', ');
    return sql`(SELECT ${sql.raw(select)} FROM json_each(${json})) AS ${sql.raw(alias)}`;
  }
  const types = cols.map(([name, type]) => `${name} ${type}`).join(', ');
  return sql`json_to_recordset(CAST(${json} AS json)) AS ${sql.raw(alias)}(${sql.raw(types)})`;
}

/** INSERT INTO table (columns) SELECT columns FROM <json rows>, with an optional ON CONFLICT clause. */
export async function insertJsonRows(
  db: Kysely<Database>,
  table: string,
  rows: readonly object[],
  columns: readonly JsonColumn[],
  onConflict: RawBuilder<unknown> | null = null,
): Promise<void> {
  if (rows.length === 0) return;
  if (!COLUMN_NAME.test(table)) throw new Error(`not a table name: ${table}`);
  const names = sql.raw(
    checked(columns)
      .map(([name]) => name)
      .join(', '),
  );
  // SQLite needs a WHERE before ON CONFLICT to parse INSERT ... SELECT ... ON CONFLICT.
  await sql`INSERT INTO ${sql.raw(table)} (${names}) SELECT ${names} FROM ${jsonRowSource(db, rows, columns, 'v')} WHERE true ${onConflict ?? sql``}`.execute(
    db,
  );
}
