// Hot single-row reads of the public API, compiled once and run as prepared statements of the
// driver itself. Building, compiling and plugin-transforming a Kysely query with twenty columns
// and a join costs more than SQLite takes to answer it by primary key (docs/PERFORMANCE.md), so
// each read is compiled by Kysely once per database with a marker for every argument, and each
// call swaps its values in: a cached better-sqlite3 statement, or a named (server-side prepared)
// PostgreSQL statement. Rows get the same camelCase keys the CamelCasePlugin gives them.
import type { CompiledQuery, Kysely } from 'kysely';
import { columnKey, rowObjects, type Db } from '../../db/connect';
import type { Database } from '../../db/schema';

/** What a read builds: a Kysely select (compiled once; executed as is inside a transaction). */
export interface PreparableQuery<Row> {
  compile(): CompiledQuery<Row>;
  execute(): Promise<Row[]>;
}

type Runner<Row, Args extends unknown[]> = (args: Args) => Promise<Row[]>;

/** The query compiled once with a marker per argument, and how to fill in a call's arguments. */
function compileOnce<Row, Args extends unknown[]>(
  database: Db,
  name: string,
  arity: number,
  build: (db: Kysely<Database>, ...args: Args) => PreparableQuery<Row>,
): { query: CompiledQuery<Row>; fill: (args: Args) => unknown[] } {
  const markers = Array.from({ length: arity }, (_, k) => `\u0000prepared-argument-${k}\u0000`);
  const query = build(database.db, ...(markers as unknown as Args)).compile();
  const template = [...query.parameters];
  const slots = markers.map((m) => template.flatMap((p, i) => (p === m ? [i] : [])));
  const missing = slots.findIndex((s) => s.length === 0);
  if (missing >= 0)
    throw new Error(`prepared read ${name}: argument ${missing} is not a parameter`);
  const fill = (args: Args): unknown[] => {
    const parameters = [...template];
    slots.forEach((positions, k) => {
      for (const i of positions) parameters[i] = args[k];
    });
    return parameters;
  };
  return { query, fill };
}

function compileFor<Row, Args extends unknown[]>(
  database: Db,
  name: string,
  arity: number,
  build: (db: Kysely<Database>, ...args: Args) => PreparableQuery<Row>,
  aside: boolean,
): Runner<Row, Args> {
  const { query, fill } = compileOnce(database, name, arity, build);
  const native = database.native;
  if (native.dialect === 'sqlite' && aside) {
    // Thousands of rows: read on the read thread (connect.ts readAside), prepared there.
    return (args) => database.readAside({ ...query, parameters: fill(args) });
  }
  if (native.dialect === 'sqlite') {
    const statement = native.sqlite.prepare(query.sql);
    statement.raw(true);
    const keys = statement.columns().map((c) => columnKey(c.name));
    return async (args) => {
      // Inside a transaction of this connection a read must wait for it like any Kysely query
      // (its uncommitted rows are not yet everyone's).
      if (native.sqlite.inTransaction) return build(database.db, ...args).execute();
      return rowObjects<Row>(keys, statement.all(...fill(args)) as unknown[][]);
    };
  }
  const pool = native.pool;
  let keys: string[] | null = null;
  return async (args) => {
    const result = await pool.query<unknown[]>({
      name,
      text: query.sql,
      values: fill(args),
      rowMode: 'array',
    });
    keys ??= result.fields.map((f) => columnKey(f.name));
    return rowObjects<Row>(keys, result.rows);
  };
}

/**
 * A read with the arguments of `build`, prepared once per database. Every argument must end up
 * as a bound parameter of the query (not in its text); `name` must be unique among prepared reads.
 * `aside`: a long read (thousands of rows), which SQLite runs on its read thread instead of the
 * event loop (Db.readAside).
 */
export function preparedRead<Row, Args extends unknown[]>(
  name: string,
  build: (db: Kysely<Database>, ...args: Args) => PreparableQuery<Row>,
  options: { aside?: boolean } = {},
): (database: Db, ...args: Args) => Promise<Row[]> {
  const runners = new WeakMap<Db, Runner<Row, Args>>();
  return (database, ...args) => {
    let run = runners.get(database);
    if (!run) {
      run = compileFor(database, name, args.length, build, options.aside ?? false);
      runners.set(database, run);
    }
    return run(args);
  };
}

/**
 * A long read's query with the arguments of `build` (compiled once per database, each call's
 * arguments as its parameters), for Db.readDocument: the read is made into a finished document
 * where it runs.
 */
export function preparedQuery<Row, Args extends unknown[]>(
  name: string,
  build: (db: Kysely<Database>, ...args: Args) => PreparableQuery<Row>,
): (database: Db, ...args: Args) => CompiledQuery<Row> {
  const compiled = new WeakMap<Db, ReturnType<typeof compileOnce<Row, Args>>>();
  return (database, ...args) => {
    let c = compiled.get(database);
    if (!c) {
      c = compileOnce(database, name, args.length, build);
      compiled.set(database, c);
    }
    return { ...c.query, parameters: c.fill(args) };
  };
}
