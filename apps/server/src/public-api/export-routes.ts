// Beyond the spec: streaming export of every packet in a range (constant memory, keyset pages)
// and a search over satellites and stations.
import { Readable } from 'node:stream';
import {
  EXPORT_MAX_RANGE_MS,
  ErrorBodySchema,
  ExportQuerySchema,
  SearchQuerySchema,
  SearchResponseSchema,
  type ExportQuery,
} from '@tinygs/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database, PacketRow } from '../db/schema';
import { requireOwner } from '../http/auth';
import { notFound } from '../http/errors';
import { limitRequests } from '../http/limits';
import type { RouteModule } from '../http/route-module';
import { findSatellite } from '../repositories/public/catalogue-reads';
import { exportPage, exportRowAt, type ExportCursor } from '../repositories/public/packet-reads';
import { searchSatellites, searchStations } from '../repositories/public/search-reads';
import { stationOwner } from '../repositories/public/station-reads';

const EXPORT_PAGE_ROWS = 1000;

/** GET /v1/search per client per minute, and for every client together. */
export const SEARCH_LIMIT = {
  perClient: 120,
  windowMs: 60_000,
  global: { capacity: 600, perSecond: 100 },
} as const;
const CSV_COLUMNS = [
  'id',
  'serverTime',
  'satellite',
  'norad',
  'mode',
  'freq',
  'sf',
  'cr',
  'bw',
  'bitrate',
  'freqDev',
  'rxBw',
  'satLat',
  'satLng',
  'satAlt',
  'stationNumber',
  'crcError',
  'raw',
  'parsed',
] as const;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function exportRecord(p: PacketRow) {
  return {
    id: p.id,
    serverTime: p.serverTime,
    satellite: p.satellite,
    norad: p.norad,
    mode: p.mode,
    freq: p.freq,
    sf: p.sf,
    cr: p.cr,
    bw: p.bw,
    bitrate: p.bitrate,
    freqDev: p.freqDev,
    rxBw: p.rxBw,
    satLat: p.satLat,
    satLng: p.satLng,
    satAlt: p.satAlt,
    stationNumber: p.stationNumber,
    crcError: p.crcError === 1,
    raw: p.raw,
    parsed: p.parsed,
  };
}

/**
 * The range actually exported: both ends given (at most EXPORT_MAX_RANGE_MS apart, checked by the
 * schema), or the missing ones filled so that it spans EXPORT_MAX_RANGE_MS, ending now by default.
 */
export function exportRange(query: ExportQuery, now = Date.now()): { from: number; to: number } {
  if (query.from !== undefined && query.to !== undefined) return { from: query.from, to: query.to };
  if (query.from !== undefined) return { from: query.from, to: query.from + EXPORT_MAX_RANGE_MS };
  const to = query.to ?? now;
  return { from: Math.max(0, to - EXPORT_MAX_RANGE_MS), to };
}

type ExportFilter = { satellite?: string; stationId?: string; from: number; to: number };

/**
 * Pages through the range on demand: the stream pulls the next page only when the client reads,
 * and stops after `limit` rows.
 */
function exportStream(db: Kysely<Database>, query: ExportQuery, filter: ExportFilter): Readable {
  let remaining = query.limit;
  let cursor: ExportCursor | null = null;
  let first = true;
  let done = false;
  const csv = query.format === 'csv';
  return new Readable({
    async read() {
      try {
        if (done) return;
        const pageRows = Math.min(EXPORT_PAGE_ROWS, remaining);
        const rows = await exportPage(db, filter, cursor, pageRows);
        remaining -= rows.length;
        let chunk = '';
        if (first) chunk += csv ? `${CSV_COLUMNS.join(',')}\n` : '[';
        for (const row of rows) {
          const rec = exportRecord(row);
          if (csv) chunk += `${CSV_COLUMNS.map((c) => csvCell(rec[c])).join(',')}\n`;
          else
            chunk += `${first ? '' : ','}\n${JSON.stringify({ ...rec, parsed: rec.parsed ? (JSON.parse(rec.parsed) as unknown) : null })}`;
          first = false;
        }
        const last = rows[rows.length - 1];
        if (last) cursor = { serverTime: last.serverTime, id: last.id };
        if (rows.length < pageRows || remaining <= 0) {
          done = true;
          if (!csv) chunk += first ? '[]\n' : '\n]\n';
          this.push(chunk);
          this.push(null);
          return;
        }
        this.push(chunk);
      } catch (err) {
        this.destroy(err instanceof Error ? err : new Error(String(err)));
      }
    },
  });
}

export const exportRoutes: RouteModule = async (app, ctx) => {
  const db = ctx.database.db;

  app.get(
    '/v1/export/packets',
    {
      schema: {
        tags: ['public'],
        summary:
          'Packets of a satellite (anyone) or a station (its owner) in a time range, oldest first, streamed as JSON or CSV',
        description:
          'At most `limit` rows (default 1000, at most 10000) from a range of at most 31 days (missing ends are filled: the last 31 days by default). The headers X-Export-From, X-Export-To and X-Export-Limit give what was applied; X-Export-Next-From is present when more rows follow: ask again with from set to it (rows at that very millisecond may repeat).',
        querystring: ExportQuerySchema,
        response: {
          200: z.string(),
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      if (q.station) {
        const owner = await stationOwner(db, q.station);
        if (owner === undefined) throw notFound(`Unknown station: ${q.station}`);
        await requireOwner(ctx, req, owner);
      }
      if (q.satellite && !(await findSatellite(db, q.satellite)))
        throw notFound(`Unknown satellite: ${q.satellite}`);
      const name = (q.station ?? q.satellite ?? 'packets').replace(/[^A-Za-z0-9_@-]/g, '_');
      const range = exportRange(q);
      const filter = { satellite: q.satellite, stationId: q.station, ...range };
      // One indexed probe says whether the limit cuts the range short, before the body starts.
      const next = await exportRowAt(db, filter, q.limit);
      if (next) reply.header('x-export-next-from', String(next.serverTime));
      reply
        .header('x-export-from', String(range.from))
        .header('x-export-to', String(range.to))
        .header('x-export-limit', String(q.limit))
        .header('content-disposition', `attachment; filename="${name}.${q.format}"`)
        .header('cache-control', 'no-store')
        .type(q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
      return (reply as FastifyReply).send(exportStream(db, q, filter));
    },
  );

  app.get(
    '/v1/search',
    {
      // Text of three characters or more is an index lookup; shorter text scans the names
      // (repositories/public/search-reads.ts), so the route is rate-limited like the other
      // costlier ones: typing into a search box stays far below it.
      ...limitRequests(SEARCH_LIMIT),
      schema: {
        tags: ['public'],
        summary:
          'Satellites by name, display name or NORAD id, and stations by name (20 of each at most)',
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (req) => {
      const [satellites, stations] = await Promise.all([
        searchSatellites(ctx.database, req.query.q, 20),
        searchStations(ctx.database, req.query.q, 20),
      ]);
      return {
        satellites: satellites.map((s) => ({
          name: s.name,
          displayName: s.displayName,
          status: s.status as z.infer<typeof SearchResponseSchema>['satellites'][number]['status'],
        })),
        stations,
      };
    },
  );
};
