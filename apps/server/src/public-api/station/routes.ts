// Public reads of one station: its page (owner-only fields for its owner alone) and its 30-day
// statistics. The owner's changes to a station (PUT, DELETE /v1/station/{id}) are
// accounts/routes/station-routes.ts.
import {
  ErrorBodySchema,
  StationIdParamsSchema,
  StationResponseSchema,
  StationStatisticsResponseSchema,
} from '@tinygs/contracts';
import { sessionUser } from '../../http/auth';
import type { RouteModule } from '../../http/route-module';
import { sendJson, sendPrepared } from '../http-cache';
import { stationService } from './service';

export const publicStationRoutes: RouteModule = async (app, ctx) => {
  const stations = stationService(ctx);

  app.get(
    '/v1/station/:id',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'One station; local_ip, wifiRssi, radioStatus, autoUpdate, beta, tx, modem_conf and satnogsOptOut only for its owner',
        params: StationIdParamsSchema,
        response: { 200: StationResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    (req, reply) => {
      // Owner views differ per caller: a shared cache keeps one page per session headers.
      reply.header('vary', 'userId, sessionToken');
      const kept = stations.keptPublicPage(req.params.id, req.headers.userid);
      if (kept) {
        // Sent here, synchronously: nothing to await.
        sendPrepared(req, reply, kept);
        return;
      }
      return (async () => {
        const view = await stations.view(
          req.params.id,
          req.headers.userid,
          async () => (await sessionUser(ctx, req))?.userId,
        );
        if (!view.owner) return sendPrepared(req, reply, view.doc);
        reply.header('cache-control', 'private, no-store');
        return sendJson(req, reply, view.text);
      })();
    },
  );

  app.get(
    '/v1/station/:id/statistics',
    {
      schema: {
        tags: ['public'],
        summary:
          'Frames the station received per day over the last 30 days, with the satellite position of each',
        params: StationIdParamsSchema,
        response: {
          200: StationStatisticsResponseSchema,
          400: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req) => stations.statistics(req.params.id),
  );
};
