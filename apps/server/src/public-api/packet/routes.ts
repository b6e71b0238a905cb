// One packet with every station that heard it (GET /v1/packet/{id}, and /v1/packetIna/{id} as the
// live API has it): a closed packet may be kept by browsers, one still open is revalidated.
import {
  ErrorBodySchema,
  PacketDetailResponseSchema,
  PacketIdParamsSchema,
} from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { sendPrepared } from '../http-cache';
import { CLOSED_PACKET_TTL_S, packetService } from './service';

export const packetRoutes: RouteModule = async (app, ctx) => {
  const packets = packetService(ctx);

  for (const path of ['/v1/packet/:id', '/v1/packetIna/:id']) {
    app.get(
      path,
      {
        compress: false,
        decompress: false,
        schema: {
          tags: ['public'],
          summary: 'One packet with every station that received it',
          params: PacketIdParamsSchema,
          response: { 200: PacketDetailResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (req, reply) => {
        const { doc, closed } = await packets.page(req.params.id);
        return sendPrepared(
          req,
          reply,
          doc,
          closed ? `public, max-age=${CLOSED_PACKET_TTL_S}` : 'public, no-cache',
        );
      },
    );
  }
};
