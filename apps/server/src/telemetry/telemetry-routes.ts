// GET /v1/satellite/{name}/telemetry/fields: the numeric fields of a satellite's decoded packets
// with their first and newest sample; GET /v1/satellite/{name}/telemetry?field=&from=&to=&bucket=:
// one field over a range, raw or as min/avg/max per hour or UTC day, as JSON or CSV. Read from
// the series the ingest keeps (repositories/telemetry.ts), never from the packets. The long reads
// run aside: on SQLite the read thread also makes their rows into the finished JSON or CSV
// (series-documents.ts) and hashes it, so the event loop only sends the bytes; large answers are
// compressed on the libuv pool. A JSON answer is kept while its field's sample count and newest
// sample stay the same (series-cache.ts).
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
} from '@tinygs/contracts';
import { z } from 'zod';
import type { CompiledQuery } from 'kysely';
import type { Db } from '../db/connect';
import { badRequest, notFound } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { FastBody, sendKept } from '../public-api/http-cache';
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
import type { SeriesHead } from './series-documents';
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

/**
 * The read of a series query: its range and bucket checked (400, 404) and the compiled read whose
 * rows series-documents.ts makes into the answer.
 */
export async function seriesRead(
  database: Db,
  satellite: string,
  q: TelemetryQuery,
  field?: TelemetryFieldRow,
): Promise<{ head: SeriesHead; query: CompiledQuery; columns?: CompiledQuery[] }> {
  const info = field ?? (await telemetryField(database, satellite, q.field));
  if (!info) throw await missingField(database, satellite, q.field);
  const to = q.to ?? info.lastAt;
  const from = q.from ?? to - DAY_MS;
  if (from >= to) throw badRequest('from must be before to');
  if (to - from > TELEMETRY_MAX_RANGE_DAYS * DAY_MS)
    throw badRequest(`from and to must be at most ${TELEMETRY_MAX_RANGE_DAYS} days apart`);
  const bucket = chooseBucket(q.bucket, from, to, info.lastAt);
  const head = { satellite, field: q.field, bucket, from, to, limit: TELEMETRY_MAX_RAW_POINTS };
  if (bucket === 'raw')
    return {
      head,
      // One more than kept: its presence says the answer was truncated.
      ...rawSamples(database, satellite, q.field, from, to, TELEMETRY_MAX_RAW_POINTS + 1),
    };
  const size = bucket === 'hour' ? HOUR_MS : DAY_MS;
  return {
    head,
    query: rollups(database, satellite, q.field, bucket, Math.floor(from / size) * size, to),
  };
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
        const info = await telemetryField(ctx.database, name, q.field);
        if (!info) throw await missingField(ctx.database, name, q.field);
        const key = [name, q.field, q.from, q.to, q.bucket].join('\n');
        const doc = await kept.get(key, info, async () => {
          const { head, query, columns } = await seriesRead(ctx.database, name, q, info);
          // Read, made into JSON and hashed aside (on SQLite's read thread).
          const { bytes, etag } = await ctx.database.readDocument(
            query,
            { name: 'telemetry-json', context: head },
            { columns },
          );
          return FastBody.finished(bytes, etag);
        });
        return sendKept(req, reply, doc);
      }
      const { head, query, columns } = await seriesRead(ctx.database, name, q);
      const { bytes } = await ctx.database.readDocument(
        query,
        { name: 'telemetry-csv', context: head },
        { columns },
      );
      const file = `${head.satellite}-${head.field}-${head.bucket}`.replace(
        /[^A-Za-z0-9_.-]/g,
        '_',
      );
      return reply
        .header('content-disposition', `attachment; filename="${file}.csv"`)
        .header('vary', 'accept')
        .type('text/csv; charset=utf-8')
        .send(bytes.toString());
    },
  );
};
