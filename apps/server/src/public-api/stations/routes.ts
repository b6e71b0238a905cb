// GET /v1/stations: every station (or one user's) in the map/list shape, sent prepared.
import { ErrorBodySchema, StationsQuerySchema, StationsResponseSchema } from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { sendKept } from '../http-cache';
import { stationsService } from './service';

export const stationListRoutes: RouteModule = async (app, ctx) => {
  const stations = stationsService(ctx);

  app.get(
    '/v1/stations',
    {
      // Sent prepared (already compressed): no per-request compression hooks.
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary: 'Every station (or one user’s with ?userId=) in the map/list shape',
        querystring: StationsQuerySchema,
        response: { 200: StationsResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (req, reply) => sendKept(req, reply, await stations.list(req.query.userId)),
  );
};
