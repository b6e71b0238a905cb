// Streaming export of the packets of a satellite (anyone) or a station (its owner only) in a time
// range: constant memory, keyset pages pulled as the client reads.
import { Readable } from 'node:stream';
import { EXPORT_MAX_RANGE_MS, type ExportQuery } from '@tinygs/contracts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import { notFound } from '../../http/errors';
import { findSatellite } from '../../repositories/public/catalogue-reads';
import { exportPage, exportRowAt, type ExportCursor } from '../../repositories/public/packet-reads';
import { stationOwner } from '../../repositories/public/station-reads';
import { CSV_COLUMNS, csvLine, jsonItem } from './mapper';

const EXPORT_PAGE_ROWS = 1000;

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
          if (csv) chunk += csvLine(row);
          else chunk += `${first ? '' : ','}\n${jsonItem(row)}`;
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

/** An export about to be streamed: what was applied, and the body. */
export interface PreparedExport {
  /** file name without extension */
  name: string;
  range: { from: number; to: number };
  /** where the next export should start when the limit cut this one short */
  nextFrom: number | null;
  body: Readable;
}

export function exportService(ctx: AppContext) {
  const db = ctx.database.db;
  return {
    /**
     * Checks the request (a station's packets for its owner only: `requireOwner` throws for anyone
     * else; known satellite) and opens the stream.
     */
    async open(
      q: ExportQuery,
      requireOwner: (ownerId: string) => Promise<unknown>,
    ): Promise<PreparedExport> {
      if (q.station) {
        const owner = await stationOwner(db, q.station);
        if (owner === undefined) throw notFound(`Unknown station: ${q.station}`);
        await requireOwner(owner);
      }
      if (q.satellite && !(await findSatellite(db, q.satellite)))
        throw notFound(`Unknown satellite: ${q.satellite}`);
      const name = (q.station ?? q.satellite ?? 'packets').replace(/[^A-Za-z0-9_@-]/g, '_');
      const range = exportRange(q);
      const filter = { satellite: q.satellite, stationId: q.station, ...range };
      // One indexed probe says whether the limit cuts the range short, before the body starts.
      const next = await exportRowAt(db, filter, q.limit);
      return {
        name,
        range,
        nextFrom: next ? next.serverTime : null,
        body: exportStream(db, q, filter),
      };
    },
  };
}
