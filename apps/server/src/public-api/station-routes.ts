// Public station reads: the list for maps, one station (owner-only fields for the owner alone)
// and its 30-day statistics.
import {
  ErrorBodySchema,
  STATION_STATS_DAYS,
  StationIdParamsSchema,
  StationResponseSchema,
  StationsQuerySchema,
  StationsResponseSchema,
  StationStatisticsResponseSchema,
  type StationFull,
  type StationStatistics,
} from '@tinygs/contracts';
import type { AppContext } from '../context';
import type { StationRow } from '../db/schema';
import { sessionUser } from '../http/auth';
import { notFound } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { PICTURE_STATUS, toPicture } from '../repositories/pictures';
import { stationFramesSince } from '../repositories/public/packet-reads';
import { findStation, stationById, stationPictures } from '../repositories/public/station-reads';
import { listStationListItems } from '../repositories/stations';
import { DocumentCache } from './document-cache';
import { PreparedBody, sendJson, sendPrepared } from './http-cache';

const DAY_MS = 86_400_000;
/** A busy station hears thousands of frames a day: its statistics hold the newest this many. */
export const STATION_STATS_MAX_FRAMES = 10_000;
/** Statistics are kept this long per station, for at most STATS_CACHE_STATIONS stations. */
const STATS_CACHE_MS = 60_000;
const STATS_CACHE_STATIONS = 1_000;
/** Changes without an event (pings updating lastSeen) show within this time. */
const LIST_TTL_MS = 2_000;

interface StationList {
  all: PreparedBody;
  /** each user's stations, serialised; prepared on first request */
  byUser: Map<string, string>;
  preparedByUser: Map<string, Promise<PreparedBody>>;
}

/** The station list, shared by every visitor until a station changes. */
function stationListCache(ctx: AppContext) {
  const cache = new DocumentCache<'all', StationList>(LIST_TTL_MS, 1);
  ctx.events.subscribe('stations-changed', () => cache.invalidateAll());
  async function build(): Promise<StationList> {
    const items = await listStationListItems(ctx.database.db);
    const byUser = new Map<string, typeof items>();
    for (const s of items) {
      const list = byUser.get(s.userId);
      if (list) list.push(s);
      else byUser.set(s.userId, [s]);
    }
    return {
      all: await PreparedBody.of(JSON.stringify(items)),
      byUser: new Map([...byUser].map(([u, list]) => [u, JSON.stringify(list)])),
      preparedByUser: new Map(),
    };
  }
  return async (userId?: string): Promise<PreparedBody> => {
    const list = await cache.get('all', build);
    if (userId === undefined) return list.all;
    let doc = list.preparedByUser.get(userId);
    if (!doc) {
      doc = PreparedBody.of(list.byUser.get(userId) ?? '[]');
      // Only users with stations are kept: the map is bounded by the list itself.
      if (list.byUser.has(userId)) list.preparedByUser.set(userId, doc);
    }
    return doc;
  };
}

function toStationFull(
  row: StationRow & { satDisplayName: string | null },
  isOwner: boolean,
): StationFull {
  const pub: StationFull = {
    id: row.id,
    name: row.name,
    userId: row.userId,
    status: row.status === 1 ? 1 : 0,
    satellite: row.satellite,
    satDisplayName: row.satDisplayName,
    version: row.version,
    lastPacketTime: row.lastPacketTime,
    lastSeen: row.lastSeen,
    creationDate: row.creationDate,
    autoTune: ([0, 137, 433, 900, 2400] as const).find((b) => b === row.autoTune) ?? null,
    test: row.test === 1,
    description: row.description,
    antenna: row.antenna ?? '',
    antennaBand: [row.antennaBandLowMhz, row.antennaBandHighMhz],
    location: [row.lat, row.lng],
    elevation: row.elevationM ?? 0,
    recordDistance: row.recordDistanceKm,
    telemetryPackets: row.telemetryPackets,
    confirmedPackets: row.confirmedPackets,
    pictures: [],
  };
  if (!isOwner) return pub;
  return {
    ...pub,
    local_ip: row.localIp,
    wifiRssi: row.wifiRssi,
    radioStatus: row.radioStatus,
    autoUpdate: row.autoUpdate === 1,
    beta: row.beta === 1,
    tx: row.tx === 1,
    modem_conf: row.modemConf ?? '',
  };
}

export const stationRoutes: RouteModule = async (app, ctx) => {
  const db = ctx.database.db;
  const stationList = stationListCache(ctx);

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
    async (req, reply) => sendPrepared(req, reply, await stationList(req.query.userId)),
  );

  app.get(
    '/v1/station/:id',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'One station; local_ip, wifiRssi, radioStatus, autoUpdate, beta, tx and modem_conf only for its owner',
        params: StationIdParamsSchema,
        response: { 200: StationResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const [[row], rows] = await Promise.all([
        stationById(ctx.database, req.params.id),
        stationPictures(ctx.database, req.params.id),
      ]);
      if (!row) throw notFound(`Unknown station: ${req.params.id}`);
      const isOwner = (await sessionUser(ctx, req))?.userId === row.userId;
      const pictures = rows
        .filter(
          (p) =>
            p.status === PICTURE_STATUS.approved ||
            (isOwner && p.status === PICTURE_STATUS.pending),
        )
        .map(toPicture);
      // Owner views differ per caller: never let a shared cache keep one.
      reply.header('cache-control', 'private, no-store').header('vary', 'userId, sessionToken');
      const body: StationFull = { ...toStationFull(row, isOwner), pictures };
      return sendJson(req, reply, JSON.stringify(body));
    },
  );

  const statsCache = new Map<string, { at: number; body: StationStatistics }>();
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
    async (req) => {
      const cached = statsCache.get(req.params.id);
      if (cached && cached.at > Date.now() - STATS_CACHE_MS) return cached.body;
      if (!(await findStation(db, req.params.id)))
        throw notFound(`Unknown station: ${req.params.id}`);
      const since = Math.floor(Date.now() / DAY_MS) * DAY_MS - (STATION_STATS_DAYS - 1) * DAY_MS;
      const rows = await stationFramesSince(db, req.params.id, since, STATION_STATS_MAX_FRAMES);
      const days = new Map<string, StationStatistics[number]>();
      for (const r of rows) {
        const day = new Date(r.serverTime).toISOString().slice(0, 10);
        const entry = days.get(day) ?? { day, frames: [] };
        entry.frames.push({
          satellite: r.satellite,
          satPos: { lat: r.satLat ?? 0, lng: r.satLng ?? 0, alt: r.satAlt ?? 0 },
        });
        days.set(day, entry);
      }
      const body = [...days.values()];
      // Oldest entry out first once full (a Map iterates in insertion order).
      statsCache.delete(req.params.id);
      if (statsCache.size >= STATS_CACHE_STATIONS) {
        const oldest = statsCache.keys().next().value;
        if (oldest !== undefined) statsCache.delete(oldest);
      }
      statsCache.set(req.params.id, { at: Date.now(), body });
      return body;
    },
  );
};
