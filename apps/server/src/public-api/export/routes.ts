// Beyond the spec: streaming export of every packet in a range, as JSON or CSV.
import { ErrorBodySchema, ExportQuerySchema } from '@tinygs/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { requireOwner } from '../../http/auth';
import type { RouteModule } from '../../http/route-module';
import { exportService } from './service';

export const exportRoutes: RouteModule = async (app, ctx) => {
  const exports = exportService(ctx);

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
      const out = await exports.open(q, (owner) => requireOwner(ctx, req, owner));
      if (out.nextFrom !== null) reply.header('x-export-next-from', String(out.nextFrom));
      reply
        .header('x-export-from', String(out.range.from))
        .header('x-export-to', String(out.range.to))
        .header('x-export-limit', String(q.limit))
        .header('content-disposition', `attachment; filename="${out.name}.${q.format}"`)
        .header('cache-control', 'no-store')
        .type(q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
      return (reply as FastifyReply).send(out.body);
    },
  );
};
