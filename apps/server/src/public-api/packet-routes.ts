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
import { notFound, unauthorized } from '../http/errors';
import type { RouteModule } from '../http/routes';
import { findSatellite, templatesOf } from '../repositories/public/catalogue-reads';
import {
  countPacketsUpTo,
  findPacket,
  firstPackets,
  latestPackets,
  receptionsOf,
  stationPackets,
} from '../repositories/public/packet-reads';
import { findStation } from '../repositories/public/station-reads';
import { sendJsonText } from './http-cache';
import { toPacket, toPacketDetail } from './wire';

export const packetRoutes: RouteModule = async (app, ctx) => {
  const db = ctx.database.db;

  async function requireSatellite(name: string) {
    const row = await findSatellite(db, name);
    if (!row) throw notFound(`Unknown satellite: ${name}`);
    return row;
  }

  app.get(
    '/v2/packets',
    {
      schema: {
        tags: ['public'],
        summary:
          'The latest 50 packets, of one satellite (?satellite=) or one station (?station=name@userId)',
        querystring: PacketsV2QuerySchema,
        response: { 200: PacketsV2ResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const { satellite, station } = req.query;
      let rows;
      if (station) {
        if (!(await findStation(db, station))) throw notFound(`Unknown station: ${station}`);
        rows = await stationPackets(db, station, null, PACKETS_PAGE_SIZE);
      } else {
        if (satellite) await requireSatellite(satellite);
        rows = await latestPackets(db, satellite ?? null, PACKETS_PAGE_SIZE);
      }
      const templates = await templatesOf(db, [...new Set(rows.map((r) => r.satellite))]);
      const body: PacketsV2Response = { packets: rows.map(toPacket), templates };
      return sendJsonText(reply, JSON.stringify(body));
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
        schema: {
          tags: ['public'],
          summary: 'One packet with every station that received it',
          params: PacketIdParamsSchema,
          response: { 200: PacketDetailResponseSchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (req, reply) => {
        const row = await findPacket(db, req.params.id);
        if (!row) throw notFound(`Unknown packet: ${req.params.id}`);
        const [receptions, templates] = await Promise.all([
          receptionsOf(db, row.id),
          templatesOf(db, [row.satellite]),
        ]);
        const body: PacketDetail = toPacketDetail(row, receptions, templates[row.satellite] || null);
        return sendJsonText(reply, JSON.stringify(body));
      },
    );
  }

  app.get(
    '/v1/packets',
    {
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
      return sendJsonText(reply, JSON.stringify(rows.map(toPacket)));
    },
  );
};
