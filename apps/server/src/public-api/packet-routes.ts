// Public packet reads: latest per satellite or station, inactive satellites' history, one packet
// with every station that heard it, and a station's packets page by page. The hot answers are
// built by typed mappers and sent as JSON text: validating each of them again against its zod
// schema on the way out cost more than the query (docs/PERFORMANCE.md).
import {
  ErrorBodySchema,
  INACTIVE_PACKETS_SHOWN,
  PACKETS_PAGE_SIZE,
  PacketDetailResponseSchema,
  PacketIdParamsSchema,
  PacketsInaQuerySchema,
  PacketsInaResponseSchema,
  PacketsV2QuerySchema,
  PacketsV2ResponseSchema,
  StationPacketsQuerySchema,
  StationPacketsResponseSchema,
  type PacketDetail,
  type PacketsV2Response,
} from '@tinygs/contracts';
import { sessionUser } from '../http/auth';
import { badRequest, notFound, unauthorized } from '../http/errors';
import type { RouteModule } from '../http/route-module';
import { findSatellite, templatesOf } from '../repositories/public/catalogue-reads';
import {
  countPacketsUpTo,
  firstPackets,
  latestPackets,
  packetDetail,
  stationPackets,
} from '../repositories/public/packet-reads';
import { findStation } from '../repositories/public/station-reads';
import { DocumentCache } from './document-cache';
import { PreparedBody, sendJson, sendPrepared } from './http-cache';
import { toPacket, toPacketDetail } from './wire';

/** CRC-error packets are stored without an event; they show within this time. */
const LATEST_TTL_MS = 2_000;
/** One entry per satellite of the catalogue (and one for all of them). */
const LATEST_MAX_ENTRIES = 2_000;

export const packetRoutes: RouteModule = async (app, ctx) => {
  const db = ctx.database.db;

  async function requireSatellite(name: string) {
    const row = await findSatellite(db, name);
    if (!row) throw notFound(`Unknown satellite: ${name}`);
    return row;
  }

  // The latest packets of each satellite ('' = of all), dropped when one of them is stored.
  const latest = new DocumentCache<string, PreparedBody>(LATEST_TTL_MS, LATEST_MAX_ENTRIES);
  ctx.events.subscribe('new-packet', (event) => {
    latest.invalidate(event.satelliteName);
    latest.invalidate('');
  });
  async function latestDocument(satellite: string | null): Promise<PreparedBody> {
    if (satellite) await requireSatellite(satellite);
    const rows = await latestPackets(db, satellite, PACKETS_PAGE_SIZE);
    const templates = await templatesOf(db, [...new Set(rows.map((r) => r.satellite))]);
    const body: PacketsV2Response = { packets: rows.map(toPacket), templates };
    return PreparedBody.of(JSON.stringify(body));
  }

  app.get(
    '/v2/packets',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'The latest 50 packets, of one satellite (?satellite=) or one station (?station=name@userId); a station’s older ones page by page (?before=, ?limit= up to 500)',
        querystring: PacketsV2QuerySchema,
        response: { 200: PacketsV2ResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const { satellite, station, before, limit } = req.query;
      if (!station) {
        if (before !== undefined || limit !== undefined)
          throw badRequest('before and limit page a station’s packets: add station=name@userId');
        const key = satellite ?? '';
        const doc = await latest.get(key, () => latestDocument(satellite ?? null));
        return sendPrepared(req, reply, doc);
      }
      if (!(await findStation(db, station))) throw notFound(`Unknown station: ${station}`);
      // Public like every packet: tools polling a busy station page back with the last serverTime.
      const rows = await stationPackets(db, station, before ?? null, limit ?? PACKETS_PAGE_SIZE);
      const templates = await templatesOf(db, [...new Set(rows.map((r) => r.satellite))]);
      const body: PacketsV2Response = { packets: rows.map(toPacket), templates };
      return sendJson(req, reply, JSON.stringify(body));
    },
  );

  app.get(
    '/v2/packetsIna',
    {
      schema: {
        tags: ['public'],
        summary: 'A retired satellite: its latest 100 packets, and its first 100 when it has more',
        querystring: PacketsInaQuerySchema,
        response: { 200: PacketsInaResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req) => {
      const sat = await requireSatellite(req.query.satellite);
      const latest = await latestPackets(db, sat.name, INACTIVE_PACKETS_SHOWN);
      const more =
        (await countPacketsUpTo(db, sat.name, INACTIVE_PACKETS_SHOWN + 1)) > INACTIVE_PACKETS_SHOWN;
      const first = more ? await firstPackets(db, sat.name, INACTIVE_PACKETS_SHOWN) : undefined;
      return {
        latest: latest.map(toPacket),
        ...(first ? { first: first.map(toPacket) } : {}),
        templates: { [sat.name]: sat.webTemplate },
      };
    },
  );

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
        const found = await packetDetail(ctx.database, req.params.id);
        if (!found) throw notFound(`Unknown packet: ${req.params.id}`);
        const { packet, receptions } = found;
        const body: PacketDetail = toPacketDetail(packet, receptions, packet.template || null);
        return sendJson(req, reply, JSON.stringify(body));
      },
    );
  }

  app.get(
    '/v1/packets',
    {
      compress: false,
      decompress: false,
      schema: {
        tags: ['public'],
        summary:
          'A station’s packets, newest first, 50 a page; older pages (?before=) for the owner only',
        querystring: StationPacketsQuerySchema,
        response: {
          200: StationPacketsResponseSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const station = await findStation(db, req.query.station);
      if (!station) throw notFound(`Unknown station: ${req.query.station}`);
      const before = req.query.before ?? null;
      if (before !== null) {
        // The full history is the owner's; visitors see the first page (SPEC.md section 6).
        const user = await sessionUser(ctx, req);
        if (user?.userId !== station.userId)
          throw unauthorized('Sign in as the station owner to load more packets');
      }
      const rows = await stationPackets(db, station.id, before, PACKETS_PAGE_SIZE);
      return sendJson(req, reply, JSON.stringify(rows.map(toPacket)));
    },
  );
};
