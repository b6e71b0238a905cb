// Network counters kept as rows of `counters` and updated as things happen, so that reading the
// statistics never needs COUNT(*) over packets or stations.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export const COUNTERS = {
  /** users that own at least one station (counted when their first station says welcome) */
  members: 'members',
  /** stations online now */
  stations: 'stations',
  /** packets stored; receptions of one frame by several stations count once; CRC errors excluded */
  packets: 'packets',
  /** every stored reception, CRC errors included */
  receptions: 'receptions',
  /** CRC-error receptions */
  crcErrors: 'crcErrors',
  /** station messages dropped as invalid (bad JSON, wrong types, unknown satellite, oversized...) */
  droppedMessages: 'droppedMessages',
} as const;
export type CounterName = (typeof COUNTERS)[keyof typeof COUNTERS];

/** Adds each delta to its counter, creating missing counters. One statement for all of them. */
export async function addToCounters(
  db: Kysely<Database>,
  deltas: Partial<Record<CounterName, number>>,
): Promise<void> {
  const rows = Object.entries(deltas)
    .filter(
      (entry): entry is [CounterName, number] => typeof entry[1] === 'number' && entry[1] !== 0,
    )
    .map(([name, value]) => ({ name, value }));
  if (rows.length === 0) return;
  await db
    .insertInto('counters')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ value: eb('counters.value', '+', eb.ref('excluded.value')) })),
    )
    .execute();
}

export async function setCounter(
  db: Kysely<Database>,
  name: CounterName,
  value: number,
): Promise<void> {
  await db
    .insertInto('counters')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}

/** Current values; a counter that was never written reads 0. */
export async function readCounters(db: Kysely<Database>): Promise<Record<CounterName, number>> {
  const rows = await db.selectFrom('counters').select(['name', 'value']).execute();
  const out = Object.fromEntries(Object.values(COUNTERS).map((name) => [name, 0])) as Record<
    CounterName,
    number
  >;
  for (const row of rows) {
    if (row.name in out) out[row.name as CounterName] = Number(row.value);
  }
  return out;
}

/** One cheap read of the counters table: the health check's proof that storage answers. */
export async function pingCounters(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('counters').select('name').limit(1).execute();
}
