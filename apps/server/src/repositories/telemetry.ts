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

/**
 * The batch's samples grouped by series, in key order (satellite, then field). Samples come packet
 * by packet (one satellite and time for many fields): the series are kept per satellite, and the
 * second, hour and day of a time are worked out once per run of samples with that time.
 */
function groupBySeries(all: readonly TelemetrySample[]): SeriesBatch[] {
  const bySatellite = new Map<string, Map<string, SeriesBatch>>();
  let satellite: string | null = null;
  let fields = new Map<string, SeriesBatch>();
  let at = Number.NaN;
  let second = 0;
  let hour = 0;
  let day = 0;
  for (const s of all) {
    if (s.satellite !== satellite) {
      satellite = s.satellite;
      let own = bySatellite.get(satellite);
      if (!own) {
        own = new Map();
        bySatellite.set(satellite, own);
      }
      fields = own;
    }
    if (s.at !== at) {
      at = s.at;
      second = floorTo(at, RAW_SPACING_MS);
      hour = floorTo(at, HOUR_MS);
      day = floorTo(at, DAY_MS);
    }
    let e = fields.get(s.field);
    if (!e) {
      e = {
        satellite,
        field: s.field,
        firstAt: at,
        lastAt: at,
        samples: 0,
        raw: new Map(),
        hours: new Map(),
        days: new Map(),
      };
      fields.set(s.field, e);
    }
    if (at < e.firstAt) e.firstAt = at;
    if (at > e.lastAt) e.lastAt = at;
    e.samples += 1;
    if (!e.raw.has(second)) e.raw.set(second, s.value);
    addTo(e.hours, hour, s.value);
    addTo(e.days, day, s.value);
  }
  const series: SeriesBatch[] = [];
  for (const name of [...bySatellite.keys()].sort(byText)) {
    const own = bySatellite.get(name);
    if (own)
      for (const field of [...own.keys()].sort(byText)) series.push(own.get(field) as SeriesBatch);
  }
  return series;
}

/** A series' times and sample count in one batch, added to its `telemetry_fields` row. */
export interface FieldTotals {
  satellite: string;
  field: string;
  firstAt: number;
  lastAt: number;
  samples: number;
}

/** One hour or day of a series in one batch, merged into its `telemetry_rollups` row. */
export interface RollupRow {
  satellite: string;
  field: string;
  bucket: RollupBucket;
  start: number;
  min: number;
  max: number;
  sum: number;
  count: number;
}

// How a batch's totals merge into the stored rows; shared with the SQLite writer's prepared
// statements (sqlite/ingest-rows.ts).
export const TELEMETRY_FIELDS_ON_CONFLICT = `ON CONFLICT (satellite, field) DO UPDATE SET
  first_at = CASE WHEN excluded.first_at < telemetry_fields.first_at THEN excluded.first_at ELSE telemetry_fields.first_at END,
  last_at = CASE WHEN excluded.last_at > telemetry_fields.last_at THEN excluded.last_at ELSE telemetry_fields.last_at END,
  samples = telemetry_fields.samples + excluded.samples`;
export const TELEMETRY_ROLLUPS_ON_CONFLICT = `ON CONFLICT (satellite, field, bucket, start) DO UPDATE SET
  min = CASE WHEN excluded.min < telemetry_rollups.min THEN excluded.min ELSE telemetry_rollups.min END,
  max = CASE WHEN excluded.max > telemetry_rollups.max THEN excluded.max ELSE telemetry_rollups.max END,
  sum = telemetry_rollups.sum + excluded.sum,
  count = telemetry_rollups.count + excluded.count`;
export const TELEMETRY_SAMPLES_ON_CONFLICT = 'ON CONFLICT (satellite, field, at) DO NOTHING';

/**
 * The three writes of a batch's samples, in key order; by default one statement each through the
 * transaction (rows as one JSON parameter), prepared per row on the SQLite writer thread.
 */
export interface TelemetryWrites {
  fields(rows: readonly FieldTotals[]): Promise<void> | void;
  samples(rows: readonly TelemetrySample[]): Promise<void> | void;
  rollups(rows: readonly RollupRow[]): Promise<void> | void;
}

/**
 * Stores samples (at most TELEMETRY_MAX_FIELDS_PER_SATELLITE fields per satellite; raw ones at
 * most one per field and second, RAW_SPACING_MS) and adds them to the fields' times and counts
 * and to their hour and day rollups. Rows are written in key order, so concurrent batches of
 * instances sharing the database take the same rows' locks in the same order.
 */
export async function storeTelemetrySamples(
  db: Kysely<Database>,
  all: readonly TelemetrySample[],
  writes: TelemetryWrites = kyselyTelemetryWrites(db),
): Promise<void> {
  if (all.length === 0) return;
  const grouped = groupBySeries(all);
  const satellites = [...new Set(grouped.map((e) => e.satellite))];
  const known = await knownFields(db, satellites);
  const kept = grouped.filter((e) => withinFieldCap(known, e.satellite, e.field));
  if (kept.length === 0) return;

  const raw: TelemetrySample[] = [];
  const rollupRows: RollupRow[] = [];
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
  await writes.fields(
    kept.map((e) => ({
      satellite: e.satellite,
      field: e.field,
      firstAt: e.firstAt,
      lastAt: e.lastAt,
      samples: e.samples,
    })),
  );
  await writes.samples(raw);
  await writes.rollups(rollupRows);
}

/** The portable telemetry writes, on a transaction. */
export function kyselyTelemetryWrites(db: Kysely<Database>): TelemetryWrites {
  return {
    fields: (rows) =>
      insertJsonRows(
        db,
        'telemetry_fields',
        rows.map((r) => ({
          satellite: r.satellite,
          field: r.field,
          first_at: r.firstAt,
          last_at: r.lastAt,
          samples: r.samples,
        })),
        [
          ['satellite', 'text'],
          ['field', 'text'],
          ['first_at', 'bigint'],
          ['last_at', 'bigint'],
          ['samples', 'bigint'],
        ],
        sql.raw(TELEMETRY_FIELDS_ON_CONFLICT),
      ),
    samples: (rows) =>
      insertJsonRows(
        db,
        'telemetry_samples',
        rows.map((s) => ({ satellite: s.satellite, field: s.field, at: s.at, value: s.value })),
        [
          ['satellite', 'text'],
          ['field', 'text'],
          ['at', 'bigint'],
          ['value', 'double precision'],
        ],
        sql.raw(TELEMETRY_SAMPLES_ON_CONFLICT),
      ),
    rollups: (rows) =>
      insertJsonRows(
        db,
        'telemetry_rollups',
        rows,
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
        sql.raw(TELEMETRY_ROLLUPS_ON_CONFLICT),
      ),
  };
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
