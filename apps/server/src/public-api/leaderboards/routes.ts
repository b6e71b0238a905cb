// GET /v1/leaderboards?board=&period=&limit=: the top stations by confirmed packets, satellites
// heard or record distance, or the top satellites by packets, over the last 30 days or all time
// (service.ts keeps each ranking a minute).
import {
  ErrorBodySchema,
  LeaderboardQuerySchema,
  LeaderboardResponseSchema,
} from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { sendKept } from '../http-cache';
import { leaderboardService } from './service';

export const leaderboardRoutes: RouteModule = async (app, ctx) => {
  const leaderboards = leaderboardService(ctx);

  app.get(
    '/v1/leaderboards',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'Top stations by confirmed packets, satellites heard or record distance, or top satellites by packets, over the last 30 days or all time (up to a minute old)',
        querystring: LeaderboardQuerySchema,
        response: { 200: LeaderboardResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const { board, period, limit } = req.query;
      return sendKept(req, reply, await leaderboards.document(board, period, limit));
    },
  );
};
