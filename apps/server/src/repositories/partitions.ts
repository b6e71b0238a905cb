// Month partitions of packets and receptions (PostgreSQL only; migration 0016 and
// jobs/partition-maintenance.ts). Table, partition and bound names come from code, never input.
import { sql, type Kysely } from 'kysely';
import { monthOfSuffix, type PartitionMonth } from '../db/partition-months';

export type PartitionedTable = 'packets' | 'receptions';

/** Each partitioned table with its partition key: a packet and its receptions share a month. */
export const PARTITION_KEYS: Record<PartitionedTable, string> = {
  packets: 'id',
  receptions: 'packet_id',
};

/** Any fixed number: serialises partition changes between instances and the migration. */
const PARTITION_LOCK = 74_016_001;

// A partition change needs a short exclusive lock on the table; waiting longer behind a long read
// would queue every insert and read behind it, so the change gives up and is tried again later.
const LOCK_TIMEOUT = '5s';

export const defaultPartition = (table: PartitionedTable) => `${table}_default`;
export const monthPartition = (table: PartitionedTable, month: PartitionMonth) =>
  `${table}_${month.suffix}`;

/** True once migration 0016 made `table` a partitioned table (on PostgreSQL). */
export async function isPartitioned<DB>(db: Kysely<DB>, table: PartitionedTable) {
  const { rows } = await sql<{ kind: string }>`
    select relkind as kind from pg_class where oid = to_regclass(${table})`.execute(db);
  return rows[0]?.kind === 'p';
}

/** The month partitions of `table`, oldest first (the DEFAULT partition is not among them). */
export async function listMonthPartitions<DB>(
  db: Kysely<DB>,
  table: PartitionedTable,
): Promise<PartitionMonth[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass(${table})`.execute(db);
  const months: PartitionMonth[] = [];
  for (const { name } of rows) {
    const month = name.startsWith(`${table}_`) ? monthOfSuffix(name.slice(table.length + 1)) : null;
    if (month) months.push(month);
  }
  return months.sort((a, b) => a.startMs - b.startMs);
}

async function lockPartitions<DB>(trx: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
  await sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`).execute(trx);
}

/**
 * Creates the partition of `month` unless it exists, inside the caller's transaction. Rows of that
 * month that went to the DEFAULT partition meanwhile (no partition existed when they were written)
 * move into it. Returns how many rows moved, or null when the partition existed already.
 */
export async function addMonthPartition<DB>(
  trx: Kysely<DB>,
  table: PartitionedTable,
  month: PartitionMonth,
): Promise<number | null> {
  const name = monthPartition(table, month);
  const key = sql.ref(PARTITION_KEYS[table]);
  const bounds = sql`for values from (${sql.lit(month.from)}) to (${sql.lit(month.to)})`;
  const { rows } = await sql<{ exists: boolean; stray: boolean }>`
    select to_regclass(${name}) is not null as exists,
      exists (select 1 from ${sql.table(defaultPartition(table))}
              where ${key} >= ${month.from} and ${key} < ${month.to}) as stray`.execute(trx);
  if (rows[0]?.exists) return null;
  if (!rows[0]?.stray) {
    await sql`create table ${sql.table(name)} partition of ${sql.table(table)} ${bounds}`.execute(
      trx,
    );
    return 0;
  }
  // Attaching checks that DEFAULT holds no row of the range, so they leave it first.
  await sql`create table ${sql.table(name)} (like ${sql.table(table)} including defaults)`.execute(
    trx,
  );
  const moved = await sql`
    with moved as (
      delete from ${sql.table(defaultPartition(table))}
      where ${key} >= ${month.from} and ${key} < ${month.to} returning *)
    insert into ${sql.table(name)} select * from moved`.execute(trx);
  await sql`alter table ${sql.table(table)} attach partition ${sql.table(name)} ${bounds}`.execute(
    trx,
  );
  return Number(moved.numAffectedRows ?? 0);
}

/** addMonthPartition in a transaction of its own, serialised with every other instance. */
export async function createMonthPartition<DB>(
  db: Kysely<DB>,
  table: PartitionedTable,
  month: PartitionMonth,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    await lockPartitions(trx);
    return addMonthPartition(trx, table, month);
  });
}

/** Drops the partition of `month` with every row in it. */
export async function dropMonthPartition<DB>(
  db: Kysely<DB>,
  table: PartitionedTable,
  month: PartitionMonth,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockPartitions(trx);
    await sql`drop table if exists ${sql.table(monthPartition(table, month))}`.execute(trx);
  });
}

/** Rows in the DEFAULT partition: ids that start with no month that has a partition. */
export async function countDefaultRows<DB>(
  db: Kysely<DB>,
  table: PartitionedTable,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.table(defaultPartition(table))}`.execute(db);
  return rows[0]?.n ?? 0;
}
