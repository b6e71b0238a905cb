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
import type { RouteModule } from '../http/routes';
import { listStationPictures, PICTURE_STATUS, toPicture } from '../repositories/pictures';
import { stationFramesSince } from '../repositories/public/packet-reads';
import { findStation } from '../repositories/public/station-reads';
import { listStationListItems } from '../repositories/stations';
import { sendJsonText } from './http-cache';

const DAY_MS = 86_400_000;
/** The full list is rebuilt at most this often, and at once when stations change. */
const LIST_TTL_MS = 2_000;

/** The serialised station list, shared by every visitor until a station changes. */
function stationListCache(ctx: AppContext) {
  let cached: { at: number; all: string; byUser: Map<string, string> } | null = null;
  let building: Promise<string> | null = null;
  ctx.events.subscribe('stations-changed', () => {
    cached = null;
  });
  async function build() {
    const items = await listStationListItems(ctx.database.db);
    const all = JSON.stringify(items);
    const byUser = new Map<string, typeof items>();
    for (const s of items) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s]);
    cached = {
      at: Date.now(),
      all,
      byUser: new Map([...byUser].map(([u, list]) => [u, JSON.stringify(list)])),
    };
    return all;
  }
  return async (userId?: string): Promise<string> => {
    if (!cached || Date.now() - cached.at > LIST_TTL_MS) {
      // Concurrent requests share one rebuild.
      building ??= build().finally(() => (building = null));
      await building;
    }
    const c = cached as unknown as NonNullable<typeof cached>;
    return userId === undefined ? c.all : (c.byUser.get(userId) ?? '[]');
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
      schema: {
        tags: ['public'],
        summary: 'Every station (or one user’s with ?userId=) in the map/list shape',
        querystring: StationsQuerySchema,
        response: { 200: StationsResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (req, reply) => sendJsonText(reply, await stationList(req.query.userId)),
  );

  app.get(
    '/v1/station/:id',
    {
      schema: {
        tags: ['public'],
        summary:
          'One station; local_ip, wifiRssi, radioStatus, autoUpdate, beta, tx and modem_conf only for its owner',
        params: StationIdParamsSchema,
        response: { 200: StationResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const row = await findStation(db, req.params.id);
      if (!row) throw notFound(`Unknown station: ${req.params.id}`);
      const isOwner = (await sessionUser(ctx, req))?.userId === row.userId;
      const pictures = (await listStationPictures(db, row.id))
        .filter(
          (p) =>
            p.status === PICTURE_STATUS.approved ||
            (isOwner && p.status === PICTURE_STATUS.pending),
        )
        .map(toPicture);
      // Owner views differ per caller: never let a shared cache keep one.
      reply.header('cache-control', 'private, no-store').header('vary', 'userId, sessionToken');
      const body: StationFull = { ...toStationFull(row, isOwner), pictures };
      return sendJsonText(reply, JSON.stringify(body));
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
    async (req) => {
      if (!(await findStation(db, req.params.id)))
        throw notFound(`Unknown station: ${req.params.id}`);
      const since = Math.floor(Date.now() / DAY_MS) * DAY_MS - (STATION_STATS_DAYS - 1) * DAY_MS;
      const rows = await stationFramesSince(db, req.params.id, since);
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
      return [...days.values()];
    },
  );
};
