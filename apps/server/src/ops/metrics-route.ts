// GET /metrics in the Prometheus text format. Prometheus scrapes each instance directly (not
// through the load balancer). With METRICS_TOKEN set a scrape must carry it as a bearer token;
// without it only loopback addresses are answered, so a server exposed without a proxy does not
// publish its refusal counters to the world.
import type { RouteModule } from '../http/route-module';
import { HttpError } from '../http/errors';
import { safeEqual } from '../lib/crypto';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export const metricsRoutes: RouteModule = async (app, ctx) => {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    const token = ctx.config.metricsToken;
    if (token) {
      const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!safeEqual(given, token)) throw new HttpError(401, 'A valid metrics token is required.');
    } else if (!LOOPBACK.test(req.ip)) {
      throw new HttpError(403, 'Metrics are served to loopback addresses only; set METRICS_TOKEN.');
    }
    const { registry } = ctx.instanceMetrics;
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
};
