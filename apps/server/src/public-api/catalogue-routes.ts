// Public catalogue reads: statistics, satellite lists and details, world-map positions, TLEs.
import {
  ErrorBodySchema,
  SatelliteDetailResponseSchema,
  SatelliteNameParamsSchema,
  SatellitesQuerySchema,
  SatellitesResponseSchema,
  StatisticsResponseSchema,
  WorldmapResponseSchema,
  type SatelliteDetail,
} from '@tinygs/contracts';
import { z } from 'zod';
import { notFound } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { readCounters } from '../repositories/counters';
import {
  findSatellite,
  lastTelemetry,
  listSatellites,
} from '../repositories/public/catalogue-reads';
import { sendCached } from './http-cache';
import { positionNow, tleOf, toSatellite } from './wire';

const TEXT_TYPE = 'text/plain; charset=utf-8';
const INACTIVE = ['Inactive', 'BInactive'];
/** Not in orbit (yet, or any more): nothing to draw on the live map. */
const NOT_ON_MAP = ['Inactive', 'BInactive', 'Future', 'BFuture'];

export const catalogueRoutes: RouteModule = async (app, ctx) => {
  const db = ctx.database.db;

  app.get(
    '/v1/statistics',
    {
      schema: {
        tags: ['public'],
        summary: 'Network totals: members, online stations, packets',
        response: { 200: StatisticsResponseSchema },
      },
    },
    async () => {
      const c = await readCounters(db);
      return { members: c.members, stations: c.stations, packets: c.packets };
    },
  );

  const listSchema = {
    tags: ['public'],
    querystring: SatellitesQuerySchema,
    response: { 200: SatellitesResponseSchema, 400: ErrorBodySchema },
  };
  app.get(
    '/v1/satellites',
    {
      schema: {
        ...listSchema,
        summary: 'Satellites not retired, or exactly one status with ?status=',
      },
    },
    async (req, reply) => {
      const rows = await listSatellites(
        db,
        req.query.status ? { status: req.query.status } : { excludeStatuses: INACTIVE },
      );
      return sendCached(req, reply, JSON.stringify(rows.map((r) => toSatellite(r))), undefined, 5);
    },
  );
  app.get(
    '/v1/satellitesIna',
    {
      schema: {
        tags: ['public'],
        summary: 'Retired satellites',
        response: { 200: SatellitesResponseSchema },
      },
    },
    async (req, reply) => {
      const rows = await listSatellites(db, { status: 'Inactive' });
      return sendCached(req, reply, JSON.stringify(rows.map((r) => toSatellite(r))), undefined, 5);
    },
  );

  const detail = async (name: string): Promise<SatelliteDetail> => {
    const row = await findSatellite(db, name);
    if (!row) throw notFound(`Unknown satellite: ${name}`);
    const telemetry = await lastTelemetry(db, name);
    return {
      ...toSatellite(row),
      tle: tleOf(row),
      lastTelemetry: telemetry ? (JSON.parse(telemetry) as SatelliteDetail['lastTelemetry']) : null,
      webTemplate: row.webTemplate || null,
      totals: { confirmedPackets: row.confirmedPackets, stationReceptions: row.frames },
    };
  };
  for (const path of ['/v1/satellite/:name', '/v1/satelliteIna/:name']) {
    app.get(
      path,
      {
        schema: {
          tags: ['public'],
          summary: 'One satellite with its TLE, last telemetry, web template and totals',
          params: SatelliteNameParamsSchema,
          response: {
            200: SatelliteDetailResponseSchema,
            400: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (req, reply) =>
        sendCached(req, reply, JSON.stringify(await detail(req.params.name)), undefined, 5),
    );
  }

  app.get(
    '/v1/satellitesWorldmap',
    {
      schema: {
        tags: ['public'],
        summary: 'Where each satellite in orbit is now (tleMissing when it cannot be computed)',
        response: { 200: WorldmapResponseSchema },
      },
    },
    async () => {
      const now = Date.now();
      const rows = await listSatellites(db, { excludeStatuses: NOT_ON_MAP });
      return rows.map((r) => {
        const pos = positionNow(r, now);
        return pos
          ? {
              name: r.name,
              displayName: r.displayName,
              lat: pos.lat,
              lng: pos.lng,
              alt: pos.alt,
              tleMissing: false,
            }
          : { name: r.name, displayName: r.displayName, lat: null, lng: null, tleMissing: true };
      });
    },
  );

  // Element-set files: three lines per satellite, the first the catalogue name that packets carry
  // in `satellite` (tools key the sets by it), LF line endings. The element set's own title line
  // stays in /v1/satellite/{name} (`tle[0]`).
  const elementSets = async (excludeStatuses: readonly string[]) => {
    const rows = await listSatellites(db, { excludeStatuses });
    return rows.flatMap((r) => {
      const tle = tleOf(r);
      return tle ? [`${r.name}\n${tle[1]}\n${tle[2]}\n`] : [];
    });
  };
  const textSchema = { tags: ['public'], response: { 200: z.string() } };
  app.get(
    '/v1/tles.txt',
    {
      schema: {
        ...textSchema,
        summary: 'Three lines per satellite not retired: name, line 1, line 2',
      },
    },
    async (req, reply) =>
      sendCached(req, reply, (await elementSets(INACTIVE)).join(''), TEXT_TYPE, 300),
  );
  app.get(
    '/v1/tinygs_supported.txt',
    {
      schema: {
        ...textSchema,
        summary:
          'Three lines per satellite the network listens to (those on the live map): name, line 1, line 2',
      },
    },
    async (req, reply) =>
      sendCached(req, reply, (await elementSets(NOT_ON_MAP)).join(''), TEXT_TYPE, 300),
  );
};
