// Telemetry series (migration 0014): the fields per satellite, raw samples and hourly/daily
// rollups. The ingest and the packet import store samples with storeTelemetrySamples in the
// transaction that stores their packets; the satellite telemetry route and retention read and
// prune them.
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/schema';
import { withinFieldCap, type TelemetrySample } from '../telemetry/samples';
import { insertJsonRows } from './bulk-writes';
import { preparedQuery, preparedRead } from './public/prepared';

export const HOUR_MS = 3_600_000;
/**
 * Raw samples are kept at most one per field and second, timed to the second: a flood of frames
 * of one satellite writes a bounded number of raw rows (its rollups still count every sample).
 */
export const RAW_SPACING_MS = 1_000;
export const DAY_MS = 86_400_000;
export type RollupBucket = 'hour' | 'day';

const seriesKey = (satellite: string, field: string) => `${satellite}\n${field}`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The stored fields of these satellites. */
async function knownFields(
  db: Kysely<Database>,
  satellites: readonly string[],
): Promise<Map<string, Set<string>>> {
  const known = new Map<string, Set<string>>();
  if (satellites.length === 0) return known;
  const rows = await db
    .selectFrom('telemetryFields')
    .select(['satellite', 'field'])
    .where('satellite', 'in', satellites)
    .execute();
  for (const r of rows) {
    const set = known.get(r.satellite) ?? new Set<string>();
    set.add(r.field);
    known.set(r.satellite, set);
  }
  return known;
}

interface Aggregate {
  min: number;
  max: number;
  sum: number;
  count: number;
}

/** One series' samples of a batch: times, count, raw values per second, hour and day rollups. */
interface SeriesBatch {
  satellite: string;
  field: string;
  firstAt: number;
  lastAt: number;
  samples: number;
  raw: Map<number, number>;
  hours: Map<number, Aggregate>;
  days: Map<number, Aggregate>;
}

function addTo(buckets: Map<number, Aggregate>, start: number, value: number): void {
  const a = buckets.get(start);
  if (!a) buckets.set(start, { min: value, max: value, sum: value, count: 1 });
  else {
    if (value < a.min) a.min = value;
    if (value > a.max) a.max = value;
    a.sum += value;
    a.count += 1;
  }
}

const floorTo = (at: number, size: number) => Math.floor(at / size) * size;

/** The batch's samples grouped by series (numeric keys below the series: cheap per sample). */
function groupBySeries(all: readonly TelemetrySample[]): Map<string, SeriesBatch> {
  const series = new Map<string, SeriesBatch>();
  for (const s of all) {
    const key = seriesKey(s.satellite, s.field);
    let e = series.get(key);
    if (!e) {
      e = {
        satellite: s.satellite,
        field: s.field,
        firstAt: s.at,
        lastAt: s.at,
        samples: 0,
        raw: new Map(),
        hours: new Map(),
        days: new Map(),
      };
      series.set(key, e);
    }
    if (s.at < e.firstAt) e.firstAt = s.at;
    if (s.at > e.lastAt) e.lastAt = s.at;
    e.samples += 1;
    const second = floorTo(s.at, RAW_SPACING_MS);
    if (!e.raw.has(second)) e.raw.set(second, s.value);
    addTo(e.hours, floorTo(s.at, HOUR_MS), s.value);
    addTo(e.days, floorTo(s.at, DAY_MS), s.value);
  }
  return series;
}

/**
 * Stores samples (at most TELEMETRY_MAX_FIELDS_PER_SATELLITE fields per satellite; raw ones at
 * most one per field and second, RAW_SPACING_MS) and adds them to the fields' times and counts
 * and to their hour and day rollups: one statement per table. Rows are written in key order, so
 * concurrent batches of instances sharing the database take the same rows' locks in the same
 * order.
 */
export async function storeTelemetrySamples(
  db: Kysely<Database>,
  all: readonly TelemetrySample[],
  insertSamples: SampleRowWriter = (rows) => insertSampleRows(db, rows),
): Promise<void> {
  if (all.length === 0) return;
  const grouped = groupBySeries(all);
  const satellites = [...new Set([...grouped.values()].map((e) => e.satellite))];
  const known = await knownFields(db, satellites);
  const kept = [...grouped]
    .sort(([a], [b]) => byText(a, b))
    .map(([, e]) => e)
    .filter((e) => withinFieldCap(known, e.satellite, e.field));
  if (kept.length === 0) return;

  const raw: TelemetrySample[] = [];
  const rollupRows: object[] = [];
  for (const e of kept) {
    for (const [at, value] of e.raw)
      raw.push({ satellite: e.satellite, field: e.field, at, value });
    for (const [bucket, map] of [
      ['day', e.days],
      ['hour', e.hours],
    ] as const)
      for (const [start, a] of [...map].sort(([x], [y]) => x - y))
        rollupRows.push({ satellite: e.satellite, field: e.field, bucket, start, ...a });
  }
  const fields = kept.map((e) => ({
    satellite: e.satellite,
    field: e.field,
    first_at: e.firstAt,
    last_at: e.lastAt,
    samples: e.samples,
  }));
  await insertJsonRows(
    db,
    'telemetry_fields',
    fields,
    [
      ['satellite', 'text'],
      ['field', 'text'],
      ['first_at', 'bigint'],
      ['last_at', 'bigint'],
      ['samples', 'bigint'],
    ],
    sql`ON CONFLICT (satellite, field) DO UPDATE SET
      first_at = CASE WHEN excluded.first_at < telemetry_fields.first_at THEN excluded.first_at ELSE telemetry_fields.first_at END,
      last_at = CASE WHEN excluded.last_at > telemetry_fields.last_at THEN excluded.last_at ELSE telemetry_fields.last_at END,
      samples = telemetry_fields.samples + excluded.samples`,
  );
  await insertSamples(raw);
  await insertJsonRows(
    db,
    'telemetry_rollups',
    rollupRows,
    [
      ['satellite', 'text'],
      ['field', 'text'],
      ['bucket', 'text'],
      ['start', 'bigint'],
      ['min', 'double precision'],
      ['max', 'double precision'],
      ['sum', 'double precision'],
      ['count', 'bigint'],
    ],
    sql`ON CONFLICT (satellite, field, bucket, start) DO UPDATE SET
      min = CASE WHEN excluded.min < telemetry_rollups.min THEN excluded.min ELSE telemetry_rollups.min END,
      max = CASE WHEN excluded.max > telemetry_rollups.max THEN excluded.max ELSE telemetry_rollups.max END,
      sum = telemetry_rollups.sum + excluded.sum,
      count = telemetry_rollups.count + excluded.count`,
  );
}

/** Writes raw sample rows; the SQLite writer thread has a prepared version (sqlite/ingest-rows.ts). */
export type SampleRowWriter = (rows: readonly TelemetrySample[]) => Promise<void> | void;

async function insertSampleRows(
  db: Kysely<Database>,
  samples: readonly TelemetrySample[],
): Promise<void> {
  await insertJsonRows(
    db,
    'telemetry_samples',
    samples.map((s) => ({ satellite: s.satellite, field: s.field, at: s.at, value: s.value })),
    [
      ['satellite', 'text'],
      ['field', 'text'],
      ['at', 'bigint'],
      ['value', 'double precision'],
    ],
    sql`ON CONFLICT (satellite, field, at) DO NOTHING`,
  );
}

export interface TelemetryFieldRow {
  field: string;
  firstAt: number;
  lastAt: number;
  samples: number;
}

export async function telemetryFields(
  db: Kysely<Database>,
  satellite: string,
): Promise<TelemetryFieldRow[]> {
  return db
    .selectFrom('telemetryFields')
    .select(['field', 'firstAt', 'lastAt', 'samples'])
    .where('satellite', '=', satellite)
    .orderBy('field')
    .execute();
}

const fieldRow = preparedRead('telemetry-field', (db, satellite: string, field: string) =>
  db
    .selectFrom('telemetryFields')
    .select(['field', 'firstAt', 'lastAt', 'samples'])
    .where('satellite', '=', satellite)
    .where('field', '=', field),
);

/** One field of a satellite (asked by every series request: a statement prepared once). */
export async function telemetryField(
  database: Db,
  satellite: string,
  field: string,
): Promise<TelemetryFieldRow | undefined> {
  return (await fieldRow(database, satellite, field))[0];
}

/** Raw samples in [from, to], oldest first, at most `limit`: one range of the primary key. */
type RawRange = [satellite: string, field: string, from: number, to: number, limit: number];
const rawRange = (db: Kysely<Database>, ...[satellite, field, from, to, limit]: RawRange) =>
  db
    .selectFrom('telemetrySamples')
    .where('satellite', '=', satellite)
    .where('field', '=', field)
    .where('at', '>=', from)
    .where('at', '<=', to)
    .orderBy('at')
    .limit(limit);

const rawQuery = preparedQuery('telemetry-raw', (db, ...range: RawRange) =>
  rawRange(db, ...range).select(['at', 'value']),
);
const rawTimes = preparedQuery('telemetry-raw-at', (db, ...range: RawRange) =>
  rawRange(db, ...range).select('at'),
);
const rawValues = preparedQuery('telemetry-raw-value', (db, ...range: RawRange) =>
  rawRange(db, ...range).select('value'),
);

/**
 * The read of raw samples in [from, to], oldest first, at most `limit` (up to
 * TELEMETRY_MAX_RAW_POINTS rows, so read aside: Db.readDocument), compiled once per database; its
 * columns (at, value, what series-documents.ts reads) also as a statement each.
 */
export function rawSamples(
  database: Db,
  ...range: RawRange
): { query: CompiledQuery; columns: CompiledQuery[] } {
  return {
    query: rawQuery(database, ...range),
    columns: [rawTimes(database, ...range), rawValues(database, ...range)],
  };
}

/**
 * Rollup buckets starting in [from, to], oldest first: one range of the primary key. The columns
 * are what series-documents.ts reads: start, min, max, sum, count.
 */
export const rollups = preparedQuery(
  'telemetry-rollups',
  (db, satellite: string, field: string, bucket: RollupBucket, from: number, to: number) =>
    db
      .selectFrom('telemetryRollups')
      .select(['start', 'min', 'max', 'sum', 'count'])
      .where('satellite', '=', satellite)
      .where('field', '=', field)
      .where('bucket', '=', bucket)
      .where('start', '>=', from)
      .where('start', '<=', to)
      .orderBy('start'),
);

/** Fields in key order after `after` (a `satellite\nfield` key), for retention's rounds. */
export async function fieldsAfter(
  db: Kysely<Database>,
  after: { satellite: string; field: string } | null,
  limit: number,
): Promise<{ satellite: string; field: string; lastAt: number }[]> {
  let q = db
    .selectFrom('telemetryFields')
    .select(['satellite', 'field', 'lastAt'])
    .orderBy('satellite')
    .orderBy('field')
    .limit(limit);
  if (after)
    q = q.where((eb) =>
      eb.or([
        eb('satellite', '>', after.satellite),
        eb.and([eb('satellite', '=', after.satellite), eb('field', '>', after.field)]),
      ]),
    );
  return q.execute();
}

/** Deletes a field's raw samples before `rawBefore` and hourly rollups before `hourBefore`. */
export async function pruneField(
  db: Kysely<Database>,
  satellite: string,
  field: string,
  rawBefore: number,
  hourBefore: number,
): Promise<number> {
  const raw = await db
    .deleteFrom('telemetrySamples')
    .where('satellite', '=', satellite)
    .where('field', '=', field)
    .where('at', '<', rawBefore)
    .executeTakeFirst();
  const hours = await db
    .deleteFrom('telemetryRollups')
    .where('satellite', '=', satellite)
    .where('field', '=', field)
    .where('bucket', '=', 'hour')
    .where('start', '<', hourBefore)
    .executeTakeFirst();
  return Number(raw.numDeletedRows) + Number(hours.numDeletedRows);
}
