// GET /sse/events: the live event stream (see sse.ts). The hub lives as long as the HTTP app, so
// the stream works whether or not the broker part runs in this process.
import type { RouteModule } from '../http/routes';
import { SseHub } from './sse';

export const sseRoutes: RouteModule = async (app, ctx) => {
  const hub = new SseHub(ctx, ctx.log.child({ part: 'sse' }));
  hub.start();
  // Open streams would keep the HTTP server from closing.
  app.addHook('preClose', async () => hub.stop());

  app.get(
    '/sse/events',
    {
      schema: {
        hide: true,
        description: 'Server-sent events (text/event-stream): new-packet and stations.',
      },
    },
    (req, reply) => {
      reply.hijack();
      hub.add(req.raw, reply.raw);
    },
  );
};
