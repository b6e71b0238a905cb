// Public catalogue reads: statistics, satellite lists and details, world-map positions, TLEs.
import {
  ErrorBodySchema,
  SatelliteDetailResponseSchema,
  SatelliteNameParamsSchema,
  SatellitesQuerySchema,
  SatellitesResponseSchema,
  StatisticsResponseSchema,
  WorldmapResponseSchema,
} from '@tinygs/contracts';
import { z } from 'zod';
import type { RouteModule } from '../../http/route-module';
import { sendCached } from '../http-cache';
import { catalogueService } from './service';

const TEXT_TYPE = 'text/plain; charset=utf-8';

export const catalogueRoutes: RouteModule = async (app, ctx) => {
  const catalogue = catalogueService(ctx);

  app.get(
    '/v1/statistics',
    {
      schema: {
        tags: ['public'],
        summary: 'Network totals: members, online stations, packets',
        response: { 200: StatisticsResponseSchema },
      },
    },
    async () => catalogue.statistics(),
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
    async (req, reply) =>
      sendCached(req, reply, await catalogue.satellites(req.query.status), undefined, 5),
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
    async (req, reply) => sendCached(req, reply, await catalogue.retiredSatellites(), undefined, 5),
  );

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
        sendCached(
          req,
          reply,
          JSON.stringify(await catalogue.satellite(req.params.name)),
          undefined,
          5,
        ),
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
    async () => catalogue.worldmap(),
  );

  // Element-set files: three lines per satellite, the first the catalogue name that packets carry
  // in `satellite` (tools key the sets by it), LF line endings. The element set's own title line
  // stays in /v1/satellite/{name} (`tle[0]`).
  const textSchema = { tags: ['public'], response: { 200: z.string() } };
  app.get(
    '/v1/tles.txt',
    {
      schema: {
        ...textSchema,
        summary: 'Three lines per satellite not retired: name, line 1, line 2',
      },
    },
    async (req, reply) => sendCached(req, reply, await catalogue.tles(), TEXT_TYPE, 300),
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
    async (req, reply) => sendCached(req, reply, await catalogue.supportedTles(), TEXT_TYPE, 300),
  );
};
