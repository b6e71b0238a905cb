// GET /v1/station/{id}/health?days=7|30: the station's transitions in the window, its uptime
// (overall and per UTC day) and packets per day. Answers are kept built per station and window
// until the station changes (the `stations-changed` event) or for at most a minute.
import {
  ErrorBodySchema,
  STATION_HEALTH_MAX_TRANSITIONS,
  StationHealthQuerySchema,
  StationHealthResponseSchema,
  StationIdParamsSchema,
  type StationHealth,
} from '@tinygs/contracts';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { DocumentCache } from '../public-api/document-cache';
import { findStation } from '../repositories/public/station-reads';
import { packetsPerDay, readTransitions, stateBefore } from '../repositories/station-health';
import { DAY_MS, percent, startOfUtcDay, uptimeByDay, utcDay } from './uptime';

/**
 * Transitions read per answer. A station flapping every few seconds for a month has more; its
 * uptime is then counted from the oldest one read (the answer says `transitionsTruncated`).
 */
export const HEALTH_MAX_READ = 20_000;
const CACHE_MS = 60_000;
const CACHE_ENTRIES = 1_000;

export async function stationHealth(
  ctx: AppContext,
  stationId: string,
  days: number,
  now = Date.now(),
): Promise<StationHealth | null> {
  const db = ctx.database.db;
  const station = await findStation(db, stationId);
  if (!station) return null;
  const from = startOfUtcDay(now) - (days - 1) * DAY_MS;
  const [read, packets] = await Promise.all([
    readTransitions(db, stationId, { from, newest: HEALTH_MAX_READ + 1 }),
    packetsPerDay(db, stationId, utcDay(from)),
  ]);
  const complete = read.length <= HEALTH_MAX_READ;
  const transitions = complete ? read : read.slice(1);
  let start = from;
  let initial: boolean | null;
  if (!complete) {
    // Only the newest ones were read: count from the first of them.
    start = transitions[0]?.at ?? from;
    initial = null;
  } else {
    initial = await stateBefore(db, stationId, from);
    // No record before the window: the first change tells what the state was, no change at all
    // means the state now held throughout.
    initial ??= transitions[0] ? !transitions[0].online : station.status === 1;
  }
  const byDay = uptimeByDay(initial, transitions, from, now, Math.max(start, station.creationDate));
  const online = byDay.reduce((sum, d) => sum + d.onlineMs, 0);
  const known = byDay.reduce((sum, d) => sum + d.knownMs, 0);
  const daily = byDay.map((d) => ({
    day: d.day,
    uptimePercent: percent(d.onlineMs, d.knownMs),
    packets: packets.get(d.day) ?? 0,
  }));
  const totalPackets = daily.reduce((sum, d) => sum + d.packets, 0);
  const listed = transitions.slice(-STATION_HEALTH_MAX_TRANSITIONS);
  return {
    stationId,
    days,
    from,
    to: now,
    online: station.status === 1,
    onlineAtStart: complete ? initial : null,
    uptimePercent: percent(online, known),
    outages: byDay.reduce((sum, d) => sum + d.outages, 0),
    packetsPerDay: Math.round((totalPackets / days) * 10) / 10,
    transitions: listed,
    transitionsTruncated: !complete || listed.length < transitions.length,
    daily,
  };
}

export const healthRoutes: RouteModule = async (app, ctx) => {
  const cache = new DocumentCache<string, StationHealth>(CACHE_MS, CACHE_ENTRIES);
  ctx.events.subscribe('stations-changed', ({ stationIds }) => {
    for (const id of stationIds) {
      cache.invalidate(`${id}\n7`);
      cache.invalidate(`${id}\n30`);
    }
  });

  app.get(
    '/v1/station/:id/health',
    {
      schema: {
        tags: ['public'],
        summary:
          'Online/offline transitions with their causes, uptime and packets per day over the last 7 or 30 days',
        params: StationIdParamsSchema,
        querystring: StationHealthQuerySchema,
        response: {
          200: StationHealthResponseSchema,
          400: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      const days = Number(req.query.days);
      const health = await cache.get(`${id}\n${days}`, async () => {
        const built = await stationHealth(ctx, id, days);
        if (!built) throw notFound(`Unknown station: ${id}`);
        return built;
      });
      return health;
    },
  );
};
