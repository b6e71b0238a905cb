// Public packet lists: the latest per satellite or station, a retired satellite's history, and a
// station's packets page by page. The hot answers are built by typed mappers and sent as JSON
// text: validating each of them again against its zod schema on the way out cost more than the
// query (docs/PERFORMANCE.md). Two modules, registered around the packet page's (packet/) so that
// the routes keep their order in /openapi.json.
import {
  ErrorBodySchema,
  PACKETS_PAGE_SIZE,
  PacketsInaQuerySchema,
  PacketsInaResponseSchema,
  PacketsV2QuerySchema,
  PacketsV2ResponseSchema,
  StationPacketsQuerySchema,
  StationPacketsResponseSchema,
} from '@tinygs/contracts';
import { sessionUser } from '../../http/auth';
import { badRequest } from '../../http/errors';
import type { RouteModule } from '../../http/route-module';
import { sendJson, sendKept } from '../http-cache';
import { packetsService } from './service';

export const packetListRoutes: RouteModule = async (app, ctx) => {
  const packets = packetsService(ctx);

  app.get(
    '/v2/packets',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'The latest 50 packets, of one satellite (?satellite=) or one station (?station=name@userId); a station’s older ones page by page (?before=, ?limit= up to 500)',
        querystring: PacketsV2QuerySchema,
        response: { 200: PacketsV2ResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const { satellite, station, before, limit } = req.query;
      if (!station) {
        if (before !== undefined || limit !== undefined)
          throw badRequest('before and limit page a station’s packets: add station=name@userId');
        return sendKept(req, reply, await packets.latest(satellite ?? null));
      }
      // Public like every packet: tools polling a busy station page back with the last serverTime.
      const text = await packets.stationPage(station, before ?? null, limit ?? PACKETS_PAGE_SIZE);
      return sendJson(req, reply, text);
    },
  );

  app.get(
    '/v2/packetsIna',
    {
      schema: {
        tags: ['public'],
        summary: 'A retired satellite: its latest 100 packets, and its first 100 when it has more',
        querystring: PacketsInaQuerySchema,
        response: { 200: PacketsInaResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req) => packets.inactiveHistory(req.query.satellite),
  );
};

export const stationPacketsRoutes: RouteModule = async (app, ctx) => {
  const packets = packetsService(ctx);

  app.get(
    '/v1/packets',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'A station’s packets, newest first, 50 a page; older pages (?before=) for the owner only',
        querystring: StationPacketsQuerySchema,
        response: {
          200: StationPacketsResponseSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const text = await packets.stationHistory(
        req.query.station,
        req.query.before ?? null,
        async () => (await sessionUser(ctx, req))?.userId,
      );
      return sendJson(req, reply, text);
    },
  );
};
