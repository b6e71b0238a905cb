// GET /sse/events: the live event stream (see sse.ts); `?stations=delta` opts into the delta form
// of the station list. The hub lives as long as the HTTP app, so the stream works whether or not
// the broker part runs in this process.
import { SseQuerySchema } from '@tinygs/contracts';
import type { RouteModule } from '../http/route-module';
import { clientKey } from '../lib/address-key';
import { DEFAULT_SSE_OPTIONS, SseHub } from './sse';

const REFUSED = {
  total: 'The live event stream is full. Please try again later.',
  'per-address': 'Too many live event streams from your address.',
} as const;

export const sseRoutes: RouteModule = async (app, ctx) => {
  const hub = new SseHub(ctx, ctx.log.child({ part: 'sse' }), {
    ...DEFAULT_SSE_OPTIONS,
    maxClients: ctx.config.sseLimits.total,
    maxClientsPerAddress: ctx.config.sseLimits.perAddress,
    slowClientMs: ctx.config.sseLimits.slowClientMs,
  });
  hub.start();
  // Open streams would keep the HTTP server from closing.
  app.addHook('preClose', async () => hub.stop());

  app.get(
    '/sse/events',
    {
      schema: {
        hide: true,
        description:
          'Server-sent events (text/event-stream): new-packet and stations, or with ?stations=delta new-packet and stations-delta (with &known=<digest of the list held>, a kept event instead of the whole list when it is unchanged).',
        querystring: SseQuerySchema,
      },
    },
    (req, reply) => {
      const address = clientKey(req.ip);
      const refusal = hub.refusal(address);
      if (refusal) {
        return reply.status(429).header('retry-after', '30').send({ error: REFUSED[refusal] });
      }
      // The stream is written on the raw response: the headers set so far (security) go with it.
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      hub.add(req.raw, reply.raw, address, req.query.stations ?? 'full', req.query.known ?? null);
    },
  );
};
