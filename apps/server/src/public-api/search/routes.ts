// Beyond the spec: a search over satellites and stations, rate-limited per client and overall.
import { ErrorBodySchema, SearchQuerySchema, SearchResponseSchema } from '@tinygs/contracts';
import { limitRequests } from '../../http/limits';
import type { RouteModule } from '../../http/route-module';
import { searchService } from './service';

/** GET /v1/search per client per minute, and for every client together. */
export const SEARCH_LIMIT = {
  perClient: 120,
  windowMs: 60_000,
  global: { capacity: 600, perSecond: 100 },
} as const;

export const searchRoutes: RouteModule = async (app, ctx) => {
  const search = searchService(ctx);

  app.get(
    '/v1/search',
    {
      // Text of three characters or more is an index lookup; shorter text scans the names
      // (repositories/public/search-reads.ts), so the route is rate-limited like the other
      // costlier ones: typing into a search box stays far below it.
      ...limitRequests(SEARCH_LIMIT),
      schema: {
        tags: ['public'],
        summary:
          'Satellites by name, display name or NORAD id, and stations by name (20 of each at most)',
        querystring: SearchQuerySchema,
        response: { 200: SearchResponseSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (req) => search.search(req.query.q),
  );
};
