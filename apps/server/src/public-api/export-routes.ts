// Beyond the spec: streaming export of every packet in a range (constant memory, keyset pages)
// and a search over satellites and stations.
import { Readable } from 'node:stream';
import {
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
import type { RouteModule } from '../http/routes';
import { findSatellite, searchSatellites } from '../repositories/public/catalogue-reads';
import { exportPage, type ExportCursor } from '../repositories/public/packet-reads';
import { searchStations, stationOwner } from '../repositories/public/station-reads';

const EXPORT_PAGE_ROWS = 1000;
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

/** Pages through the range on demand: the stream pulls the next page only when the client reads. */
function exportStream(db: Kysely<Database>, query: ExportQuery): Readable {
  const filter = {
    satellite: query.satellite,
    stationId: query.station,
    from: query.from,
    to: query.to,
  };
  let cursor: ExportCursor | null = null;
  let first = true;
  let done = false;
  const csv = query.format === 'csv';
  return new Readable({
    async read() {
      try {
        if (done) return;
        const rows = await exportPage(db, filter, cursor, EXPORT_PAGE_ROWS);
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
        if (rows.length < EXPORT_PAGE_ROWS) {
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
          'Every packet of a satellite (anyone) or a station (its owner) in a time range, streamed as JSON or CSV',
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
      reply
        .header('content-disposition', `attachment; filename="${name}.${q.format}"`)
        .header('cache-control', 'no-store')
        .type(q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
      return (reply as FastifyReply).send(exportStream(db, q));
    },
  );

  app.get(
    '/v1/search',
    {
      schema: {
        tags: ['public'],
        summary:
          'Satellites by name, display name or NORAD id, and stations by name (20 of each at most)',
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (req) => {
      const [satellites, stations] = await Promise.all([
        searchSatellites(db, req.query.q, 20),
        searchStations(db, req.query.q, 20),
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
