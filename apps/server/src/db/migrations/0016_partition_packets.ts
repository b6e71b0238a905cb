// PostgreSQL at network scale: packets and receptions become tables partitioned by month
// (declarative RANGE partitioning). packets is partitioned on id and receptions on packet_id, both
// compared in byte order (COLLATE "C"): ids start with eight hex digits of epoch seconds, so one
// month's ids are one range (db/partition-months.ts), a packet and its receptions share a month,
// the primary keys (id; packet_id, station_id) already contain the key, and a read by packet id
// touches one partition. Rows whose id names no month with a partition go to a DEFAULT partition.
// The existing rows are copied into the new tables with the indexes built after the copy; the
// elected partition-maintenance job creates later months ahead and applies the retention setting.
// SQLite stays as it is: nothing to do there.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import {
  PARTITION_MONTHS_AHEAD,
  monthOfSuffix,
  monthsBetween,
  partitionMonth,
  type PartitionMonth,
} from '../partition-months';
import {
  PARTITION_KEYS,
  addMonthPartition,
  defaultPartition,
  type PartitionedTable,
} from '../../repositories/partitions';

const TABLES: PartitionedTable[] = ['packets', 'receptions'];

function isPostgres<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

interface TableShape {
  /** column definitions in column order, the partition key in byte order */
  columns: { name: string; definition: string }[];
  /** ALTER TABLE ... ADD CONSTRAINT clauses (primary key, unique) */
  constraints: { name: string; definition: string }[];
  /** CREATE INDEX statements of the other indexes, naming the table by its schema-qualified name */
  indexes: string[];
}

/** The columns, keys and indexes of `table` as they stand (later migrations may have added some). */
async function shapeOf<DB>(db: Kysely<DB>, table: PartitionedTable): Promise<TableShape> {
  const key = PARTITION_KEYS[table];
  const columns = await sql<{ name: string; type: string; notNull: boolean; def: string | null }>`
    select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
      a.attnotnull as "notNull", pg_get_expr(d.adbin, d.adrelid) as def
    from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attrelid = to_regclass(${table}) and a.attnum > 0 and not a.attisdropped
    order by a.attnum`.execute(db);
  const constraints = await sql<{ name: string; definition: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = to_regclass(${table}) and contype in ('p', 'u')`.execute(db);
  const indexes = await sql<{ definition: string }>`
    select pg_get_indexdef(i.indexrelid) as definition from pg_index i
    where i.indrelid = to_regclass(${table})
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`.execute(db);
  return {
    columns: columns.rows.map((c) => ({
      name: c.name,
      definition: [
        `"${c.name}"`,
        c.type,
        c.name === key ? 'collate "C"' : '',
        c.notNull || c.name === key ? 'not null' : '',
        c.def === null ? '' : `default ${c.def}`,
      ]
        .filter(Boolean)
        .join(' '),
    })),
    constraints: constraints.rows,
    indexes: indexes.rows.map((r) => r.definition),
  };
}

/** The months that hold packets with time-ordered ids (24 hex digits), oldest first. */
async function monthsWithPackets<DB>(db: Kysely<DB>): Promise<PartitionMonth[]> {
  const { rows } = await sql<{ suffix: string }>`
    select distinct to_char(to_timestamp(('x' || substr(id, 1, 8))::bit(32)::bigint)
      at time zone 'UTC', '"y"YYYY"m"MM') as suffix
    from packets where id ~ '^[0-9a-f]{24}$'`.execute(db);
  return rows
    .map((r) => monthOfSuffix(r.suffix))
    .filter((m): m is PartitionMonth => m !== null)
    .sort((a, b) => a.startMs - b.startMs);
}

/**
 * Rebuilds `table` under its own name, partitioned (with the given months and a DEFAULT
 * partition) or plain, copying every row; keys and indexes are built after the copy.
 */
async function rebuild<DB>(
  db: Kysely<DB>,
  table: PartitionedTable,
  months: PartitionMonth[] | null,
): Promise<void> {
  const shape = await shapeOf(db, table);
  const old = `${table}_before_0016`;
  for (const c of shape.constraints)
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(c.name)}`.execute(db);
  for (const index of shape.indexes) {
    const name = /^CREATE (?:UNIQUE )?INDEX (\S+) ON/.exec(index)?.[1];
    if (name) await sql.raw(`drop index ${name}`).execute(db);
  }
  await sql`alter table ${sql.table(table)} rename to ${sql.id(old)}`.execute(db);
  const columns = sql.raw(shape.columns.map((c) => c.definition).join(', '));
  const partitioning = months ? sql`partition by range (${sql.ref(PARTITION_KEYS[table])})` : sql``;
  await sql`create table ${sql.table(table)} (${columns}) ${partitioning}`.execute(db);
  if (months) {
    await sql`create table ${sql.table(defaultPartition(table))} partition of ${sql.table(table)} default`.execute(
      db,
    );
    for (const month of months) await addMonthPartition(db, table, month);
  }
  const names = sql.raw(shape.columns.map((c) => `"${c.name}"`).join(', '));
  await sql`insert into ${sql.table(table)} (${names}) select ${names} from ${sql.table(old)}`.execute(
    db,
  );
  await sql`drop table ${sql.table(old)}`.execute(db);
  for (const c of shape.constraints)
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(c.name)} ${sql.raw(c.definition)}`.execute(
      db,
    );
  for (const index of shape.indexes) await sql.raw(index).execute(db);
  await sql`analyze ${sql.table(table)}`.execute(db);
}

/** The copy and the index builds take minutes on a large table: longer than the server's cap. */
async function withoutStatementTimeout<DB>(db: Kysely<DB>): Promise<void> {
  await sql`set local statement_timeout = 0`.execute(db);
}

export async function up<DB>(db: Kysely<DB>): Promise<void> {
  if (!isPostgres(db)) return;
  await withoutStatementTimeout(db);
  const now = Date.now();
  const found = await monthsWithPackets(db);
  const ahead = monthsBetween(partitionMonth(now), partitionMonth(now, PARTITION_MONTHS_AHEAD));
  const months = [...new Map([...found, ...ahead].map((m) => [m.suffix, m])).values()];
  for (const table of TABLES) await rebuild(db, table, months);
}

export async function down<DB>(db: Kysely<DB>): Promise<void> {
  if (!isPostgres(db)) return;
  await withoutStatementTimeout(db);
  for (const table of TABLES) await rebuild(db, table, null);
}
