// Opens the database for either dialect behind one Kysely instance.
import { availableParallelism } from 'node:os';
import SQLite from 'better-sqlite3';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { strongEtag } from '../lib/etag';
import { documentText, type DocumentBytes, type ReadDocument } from './read-documents';
import { SqliteReadThreads, readThreadsFor } from './read-thread';
import type { Database } from './schema';

// int8 (bigint: epoch ms, counters) and COUNT() come back from pg as strings; every value we keep in
// them is far below 2^53, so numbers are exact.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export type Dialect = 'sqlite' | 'postgres';

/** The driver under Kysely: hot public reads run their statements on it, prepared once. */
export type NativeDb =
  { dialect: 'sqlite'; sqlite: SQLite.Database } | { dialect: 'postgres'; pool: pg.Pool };

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  native: NativeDb;
  /**
   * Runs a long read (thousands of rows) without holding the event loop: on SQLite on the read
   * thread's own connection (read-thread.ts; committed rows only, so never for a read inside a
   * transaction of this connection, which then runs here), on PostgreSQL as any query. Rows get
   * the camelCase keys of every other read.
   */
  readAside<Row>(query: CompiledQuery<Row>): Promise<Row[]>;
  /**
   * A long read's rows made into a finished document (read-documents.ts), aside as readAside runs:
   * on SQLite the read thread makes it and hands over its bytes and ETag, so neither the rows
   * nor the text pass through the event loop; elsewhere it is made here the same way. `columns`:
   * the same rows as one-column statements, which the read thread reads instead (plain values
   * rather than an array per row; cheaper for thousands of rows).
   */
  readDocument(
    query: CompiledQuery,
    document: ReadDocument,
    options?: { columns?: readonly CompiledQuery[] },
  ): Promise<DocumentBytes>;
  close(): Promise<void>;
}

class ColumnKeys extends CamelCasePlugin {
  keyOf(column: string): string {
    return this.camelCase(column);
  }
}
const columnKeys = new ColumnKeys();

/** The property name the CamelCasePlugin gives a result column. */
export function columnKey(column: string): string {
  return columnKeys.keyOf(column);
}

/** A document made on this thread of rows read here (objects with their columns in order). */
async function documentHere(
  rows: Promise<readonly object[]>,
  document: ReadDocument,
): Promise<DocumentBytes> {
  const read = await rows;
  const columns: unknown[][] = [];
  for (const row of read) Object.values(row).forEach((value, c) => (columns[c] ??= []).push(value));
  const bytes = Buffer.from(documentText(document, columns, read.length));
  return { bytes, etag: strongEtag(bytes) };
}

/** Rows of values as objects with these keys (columnKey of each column). */
export function rowObjects<Row>(keys: readonly string[], rows: readonly unknown[][]): Row[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i] as string] = values[i];
    return row as Row;
  });
}

/** `poolSize`: PostgreSQL connections at most (10; the ingest's writer thread takes one). */
export function openDatabase(
  database: Config['database'],
  options: { poolSize?: number } = {},
): Db {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      max: options.poolSize ?? 10,
      // A runaway statement (a pathological search, a huge export page) is cancelled by the
      // server instead of holding one of the connections; the request then fails cleanly.
      ...(database.statementTimeoutMs ? { statement_timeout: database.statementTimeoutMs } : {}),
    });
    // A dropped connection must not crash the process; the next query reports the failure (503).
    pool.on('error', () => undefined);
    // A connection dropped while a query runs also emits on the client itself; the query rejects
    // with the same error, so this listener only keeps the process alive.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new CamelCasePlugin()],
    });
    return {
      db,
      dialect: 'postgres',
      native: { dialect: 'postgres', pool },
      readAside: async (query) => (await db.executeQuery(query)).rows,
      readDocument: (query, document) =>
        documentHere(
          db.executeQuery(query).then((r) => r.rows as object[]),
          document,
        ),
      close: () => db.destroy(),
    };
  }
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  });
  const reads = sqlite.memory
    ? null
    : new SqliteReadThreads(sqlite.name, readThreadsFor(availableParallelism()));
  return {
    db,
    dialect: 'sqlite',
    native: { dialect: 'sqlite', sqlite },
    readAside: async <Row>(query: CompiledQuery<Row>) => {
      if (!reads || sqlite.inTransaction) return (await db.executeQuery(query)).rows;
      const { columns, count, values } = await reads.all(query.sql, query.parameters);
      const keys = columns.map(columnKey);
      const rows: Row[] = [];
      for (let r = 0; r < count; r++) {
        const row: Record<string, unknown> = {};
        for (let c = 0; c < keys.length; c++) row[keys[c] as string] = values[c]?.[r];
        rows.push(row as Row);
      }
      return rows;
    },
    readDocument: async (query, document, options) => {
      if (!reads || sqlite.inTransaction)
        return documentHere(
          db.executeQuery(query).then((r) => r.rows as object[]),
          document,
        );
      const columns = options?.columns?.map(({ sql, parameters }) => ({ sql, parameters }));
      return reads.document(query.sql, query.parameters, document, columns);
    },
    close: async () => {
      await reads?.close();
      await db.destroy();
    },
  };
}

/**
 * SQLite transactions that take the write lock when they begin (BEGIN IMMEDIATE). The ingest's
 * writer thread commits on its own connection many times a second; a deferred transaction of this
 * connection that reads and then writes would fail at its first write (SQLITE_BUSY_SNAPSHOT,
 * without waiting) whenever the writer committed after its read. Taken at the start, the lock is
 * waited for (busy_timeout) like any write, and no commit of another connection can slip in.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}
