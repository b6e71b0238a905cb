// GET /v1/satellite/{name}/telemetry/fields: the numeric fields of a satellite's decoded packets
// with their first and newest sample; GET /v1/satellite/{name}/telemetry?field=&from=&to=&bucket=:
// one field over a range, raw or as min/avg/max per hour or UTC day, as JSON or CSV. Read from
// the series the ingest keeps (repositories/telemetry.ts), never from the packets. The long reads
// run aside (on SQLite's read thread) and large answers are compressed on the libuv pool; a JSON
// answer is kept while its field's sample count and newest sample stay the same (series-cache.ts).
import {
  ErrorBodySchema,
  SatelliteNameParamsSchema,
  TELEMETRY_HOUR_MAX_RANGE_DAYS,
  TELEMETRY_HOUR_RETENTION_DAYS,
  TELEMETRY_MAX_RANGE_DAYS,
  TELEMETRY_MAX_RAW_POINTS,
  TELEMETRY_RAW_MAX_RANGE_DAYS,
  TELEMETRY_RAW_RETENTION_DAYS,
  TelemetryFieldsResponseSchema,
  TelemetryQuerySchema,
  TelemetrySeriesResponseSchema,
  type TelemetryBucket,
  type TelemetryFields,
  type TelemetryQuery,
  type TelemetrySeries,
} from '@tinygs/contracts';
import { z } from 'zod';
import type { Db } from '../db/connect';
import { badRequest, notFound } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { FastBody, sendFast } from '../public-api/http-cache';
import { findSatellite } from '../repositories/public/catalogue-reads';
import {
  DAY_MS,
  HOUR_MS,
  rawSamples,
  rollups,
  telemetryField,
  telemetryFields,
  type TelemetryFieldRow,
} from '../repositories/telemetry';
import { seriesCacheOf } from './series-cache';

/** Ranges `auto` answers raw, and per hour. */
const AUTO_RAW_MAX_MS = 2 * DAY_MS;
const AUTO_HOUR_MAX_MS = 31 * DAY_MS;

const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema } as const;

/** The bucket a query is answered with; throws 400 when the range is too long for the one asked. */
export function chooseBucket(
  asked: TelemetryQuery['bucket'],
  from: number,
  to: number,
  newest: number,
): TelemetryBucket {
  const span = to - from;
  if (asked === 'raw' && span > TELEMETRY_RAW_MAX_RANGE_DAYS * DAY_MS)
    throw badRequest(`bucket=raw answers ranges of at most ${TELEMETRY_RAW_MAX_RANGE_DAYS} days`);
  if (asked === 'hour' && span > TELEMETRY_HOUR_MAX_RANGE_DAYS * DAY_MS)
    throw badRequest(`bucket=hour answers ranges of at most ${TELEMETRY_HOUR_MAX_RANGE_DAYS} days`);
  if (asked !== 'auto') return asked;
  // Older raw samples and hourly rollups are pruned (counted from the field's newest sample).
  if (span <= AUTO_RAW_MAX_MS && from >= newest - TELEMETRY_RAW_RETENTION_DAYS * DAY_MS)
    return 'raw';
  if (span <= AUTO_HOUR_MAX_MS && from >= newest - TELEMETRY_HOUR_RETENTION_DAYS * DAY_MS)
    return 'hour';
  return 'day';
}

/** The 404 of a field a satellite does not have (or of a satellite that does not exist). */
async function missingField(database: Db, satellite: string, field: string): Promise<Error> {
  if (!(await findSatellite(database.db, satellite)))
    return notFound(`Unknown satellite: ${satellite}`);
  return notFound(`No telemetry field ${field} for satellite ${satellite}`);
}

export async function telemetrySeries(
  database: Db,
  satellite: string,
  q: TelemetryQuery,
  field?: TelemetryFieldRow,
): Promise<TelemetrySeries> {
  const db = database.db;
  const info = field ?? (await telemetryField(db, satellite, q.field));
  if (!info) throw await missingField(database, satellite, q.field);
  const to = q.to ?? info.lastAt;
  const from = q.from ?? to - DAY_MS;
  if (from >= to) throw badRequest('from must be before to');
  if (to - from > TELEMETRY_MAX_RANGE_DAYS * DAY_MS)
    throw badRequest(`from and to must be at most ${TELEMETRY_MAX_RANGE_DAYS} days apart`);
  const bucket = chooseBucket(q.bucket, from, to, info.lastAt);

  const series = { satellite, field: q.field, bucket, from, to };
  if (bucket === 'raw') {
    const rows = await rawSamples(
      database,
      satellite,
      q.field,
      from,
      to,
      TELEMETRY_MAX_RAW_POINTS + 1,
    );
    const kept = rows.slice(0, TELEMETRY_MAX_RAW_POINTS);
    return {
      ...series,
      t: kept.map((r) => r.at),
      avg: kept.map((r) => r.value),
      truncated: rows.length > TELEMETRY_MAX_RAW_POINTS,
    };
  }
  const size = bucket === 'hour' ? HOUR_MS : DAY_MS;
  const rows = await rollups(
    database,
    satellite,
    q.field,
    bucket,
    Math.floor(from / size) * size,
    to,
  );
  return {
    ...series,
    t: rows.map((r) => r.start),
    avg: rows.map((r) => r.sum / r.count),
    min: rows.map((r) => r.min),
    max: rows.map((r) => r.max),
    count: rows.map((r) => r.count),
    truncated: false,
  };
}

/** The series as CSV: time (ISO 8601, UTC) and value, or min, avg, max and count per bucket. */
export function seriesCsv(s: TelemetrySeries): string {
  const time = (i: number) => new Date(s.t[i] ?? 0).toISOString();
  const lines =
    s.bucket === 'raw'
      ? ['time,value', ...s.t.map((_, i) => `${time(i)},${s.avg[i]}`)]
      : [
          'time,min,avg,max,count',
          ...s.t.map(
            (_, i) => `${time(i)},${s.min?.[i]},${s.avg[i]},${s.max?.[i]},${s.count?.[i]}`,
          ),
        ];
  return `${lines.join('\n')}\n`;
}

function wantsCsv(format: TelemetryQuery['format'], accept: string | undefined): boolean {
  if (format) return format === 'csv';
  return typeof accept === 'string' && /(^|,)\s*text\/csv/i.test(accept);
}

export const telemetryRoutes: RouteModule = async (app, ctx) => {
  const db = ctx.database.db;
  const kept = seriesCacheOf(ctx);

  app.get(
    '/v1/satellite/:name/telemetry/fields',
    {
      schema: {
        tags: ['public'],
        summary:
          'The numeric fields of a satellite’s decoded packets kept as series, with their first and newest sample',
        params: SatelliteNameParamsSchema,
        response: { 200: TelemetryFieldsResponseSchema, ...errors },
      },
    },
    async (req): Promise<TelemetryFields> => {
      const { name } = req.params;
      const fields = await telemetryFields(db, name);
      if (fields.length === 0 && !(await findSatellite(db, name)))
        throw notFound(`Unknown satellite: ${name}`);
      return { satellite: name, fields };
    },
  );

  app.get(
    '/v1/satellite/:name/telemetry',
    {
      // Sent as built JSON text, compressed here (http-cache.ts sendJson).
      compress: false,
      schema: {
        tags: ['public'],
        summary:
          'One telemetry field of a satellite over time: raw samples, or min/avg/max per hour or UTC day; JSON or CSV',
        description: `\`to\` defaults to the field's newest sample and \`from\` to one day before \`to\`; the range is at most ${TELEMETRY_MAX_RANGE_DAYS} days. \`bucket=auto\` answers raw samples for up to two days, hourly buckets for up to 31 days and daily buckets beyond (older raw samples and hours are pruned: raw ${TELEMETRY_RAW_RETENTION_DAYS} days and hours ${TELEMETRY_HOUR_RETENTION_DAYS} days before the field's newest sample). \`format=csv\` (or \`Accept: text/csv\`) answers CSV.`,
        params: SatelliteNameParamsSchema,
        querystring: TelemetryQuerySchema,
        response: { 200: z.union([TelemetrySeriesResponseSchema, z.string()]), ...errors },
      },
    },
    async (req, reply) => {
      const { name } = req.params;
      const q = req.query;
      if (!wantsCsv(q.format, req.headers.accept)) {
        const info = await telemetryField(db, name, q.field);
        if (!info) throw await missingField(ctx.database, name, q.field);
        const key = [name, q.field, q.from, q.to, q.bucket].join('\n');
        const doc = await kept.get(key, info, async () =>
          FastBody.of(JSON.stringify(await telemetrySeries(ctx.database, name, q, info))),
        );
        return sendFast(req, reply, doc);
      }
      const series = await telemetrySeries(ctx.database, name, q);
      const file = `${series.satellite}-${series.field}-${series.bucket}`.replace(
        /[^A-Za-z0-9_.-]/g,
        '_',
      );
      return reply
        .header('content-disposition', `attachment; filename="${file}.csv"`)
        .header('vary', 'accept')
        .type('text/csv; charset=utf-8')
        .send(seriesCsv(series));
    },
  );
};
