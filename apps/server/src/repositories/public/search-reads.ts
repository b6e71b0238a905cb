// The public search (GET /v1/search): a case-insensitive substring of a station's name, of a
// satellite's name or display name, or a satellite's NORAD id. Text of three characters or more is
// looked up in the trigram indexes of migration 0007 (FTS5 on SQLite, pg_trgm on PostgreSQL);
// shorter text has no trigram to look up and scans the names. docs/ARCHITECTURE.md, "Search".
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/connect';

/** Trigram indexes find substrings of this many characters or more. */
export const SEARCH_INDEXED_MIN_CHARS = 3;

type SearchDb = Pick<Db, 'db' | 'dialect'>;

/** `lower(column) LIKE '%text%'` with the wildcards of `text` escaped (SQLite needs ESCAPE spelt out). */
export function containsIgnoringCase(column: string, text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/**
 * SQLite: the rows of `table` whose FTS5 copy holds `text` as one phrase (with the trigram
 * tokenizer, a case-insensitive substring), or null when `text` is too short for the index. The
 * LIKE condition stays beside it, so answers are exactly those of the scan the index replaces.
 * PostgreSQL needs nothing here: its trigram indexes serve that LIKE condition directly.
 */
function sqliteCandidates(
  database: SearchDb,
  table: 'stations' | 'satellites',
  text: string,
): Expression<SqlBool> | null {
  if (database.dialect !== 'sqlite' || [...text].length < SEARCH_INDEXED_MIN_CHARS) return null;
  const index = sql.table(`${table}_search`);
  const phrase = `"${text.replace(/"/g, '""')}"`;
  return sql<SqlBool>`${sql.ref(`${table}.rowid`)} in (select rowid from ${index} where ${index} match ${phrase})`;
}

export function stationSearchQuery(database: SearchDb, text: string, limit: number) {
  const candidates = sqliteCandidates(database, 'stations', text);
  return database.db
    .selectFrom('stations')
    .select(['id', 'name', 'userId'])
    .where((eb) => {
      const byName = containsIgnoringCase('name', text);
      return candidates ? eb.and([candidates, byName]) : byName;
    })
    .orderBy('name')
    .limit(limit);
}

export function satelliteSearchQuery(database: SearchDb, text: string, limit: number) {
  const norad = /^\d{1,9}$/.test(text) ? Number(text) : -1;
  const candidates = sqliteCandidates(database, 'satellites', text);
  return database.db
    .selectFrom('satellites')
    .select(['name', 'displayName', 'status'])
    .where((eb) => {
      const byText = eb.or([
        containsIgnoringCase('name', text),
        containsIgnoringCase('displayName', text),
      ]);
      return eb.or([candidates ? eb.and([candidates, byText]) : byText, eb('norad', '=', norad)]);
    })
    .orderBy('name')
    .limit(limit);
}

export async function searchStations(database: SearchDb, text: string, limit: number) {
  return stationSearchQuery(database, text, limit).execute();
}

export async function searchSatellites(database: SearchDb, text: string, limit: number) {
  return satelliteSearchQuery(database, text, limit).execute();
}
