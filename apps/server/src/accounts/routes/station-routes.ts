// Owner actions on a station (SPEC.md section 7): edit or operate, delete, transmit, test frame.
// Only the owner may call them: another user gets 403, an anonymous caller 401.
import {
  base64ToBytes,
  ErrorBodySchema,
  MessageResponseSchema,
  parseStationUpdateBody,
  StationIdParamsSchema,
  StationUpdateBodySchema,
  TxBodySchema,
} from '@tinygs/contracts';
import type { FastifyRequest } from 'fastify';
import type { RouteModule } from '../../http/route-module';
import { badRequest } from '../../http/errors';
import { deleteStation, editStation, operateStation, testFrame, transmit } from '../station-owner';
import { authErrors, SessionHeadersSchema } from './common';
import { ownedStation, ownStationFirst } from './guards';
import { BODY_LIMITS } from '../../http/limits';

const ownerErrors = { ...authErrors, 409: ErrorBodySchema, 503: ErrorBodySchema } as const;

/**
 * The PUT body is either the Edit form or the Operate dialog. Validating the union as a whole would
 * report "invalid input"; parseStationUpdateBody picks the matching schema so each message names
 * the field and gives the form's own wording. The route's union schema then passes the parsed body.
 */
async function parseUpdateBody(req: FastifyRequest): Promise<void> {
  const parsed = parseStationUpdateBody(req.body);
  if (parsed.success) {
    req.body = parsed.data;
    return;
  }
  const issues = parsed.error.issues.map((issue) => ({
    path: ['body', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw badRequest(
    `Invalid body: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  );
}

export const stationRoutes: RouteModule = async (app, ctx) => {
  const ownerFirst = ownStationFirst(ctx);

  app.put(
    '/v1/station/:id',
    {
      preValidation: [ownerFirst, parseUpdateBody],
      schema: {
        tags: ['stations'],
        summary:
          'Edit a station (description, antenna...) or operate it (auto tune or manual modem settings)',
        headers: SessionHeadersSchema,
        params: StationIdParamsSchema,
        body: StationUpdateBodySchema,
        response: { 200: MessageResponseSchema, ...ownerErrors },
      },
    },
    async (req) => {
      const station = await ownedStation(ctx, req, req.params.id);
      const body = req.body;
      if ('autoTune' in body) {
        await operateStation(ctx, station, body);
        return { message: 'Config saved' };
      }
      await editStation(ctx, station, body);
      return { message: 'Station saved' };
    },
  );

  app.delete(
    '/v1/station/:id',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['stations'],
        summary: 'Delete an offline station and its pictures (its packets stay in the network)',
        headers: SessionHeadersSchema,
        params: StationIdParamsSchema,
        response: { 200: MessageResponseSchema, ...ownerErrors },
      },
    },
    async (req) => {
      const station = await ownedStation(ctx, req, req.params.id);
      await deleteStation(ctx, station);
      return { message: 'Station deleted' };
    },
  );

  app.post(
    '/v2/station/:id/tx',
    {
      bodyLimit: BODY_LIMITS.tx,
      preValidation: ownerFirst,
      schema: {
        tags: ['stations'],
        summary: 'Transmit bytes (base64, at most 255) from the station',
        headers: SessionHeadersSchema,
        params: StationIdParamsSchema,
        body: TxBodySchema,
        response: { 200: MessageResponseSchema, ...ownerErrors },
      },
    },
    async (req) => {
      const station = await ownedStation(ctx, req, req.params.id);
      await transmit(ctx, station, base64ToBytes(req.body.tx));
      return { message: 'Sent' };
    },
  );

  app.post(
    '/v1/station/:id/test',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['stations'],
        summary: 'Transmit a test frame (starts with "TinyGS-test ")',
        headers: SessionHeadersSchema,
        params: StationIdParamsSchema,
        response: { 200: MessageResponseSchema, ...ownerErrors },
      },
    },
    async (req) => {
      const station = await ownedStation(ctx, req, req.params.id);
      await transmit(ctx, station, testFrame(station));
      return { message: 'Test frame sent' };
    },
  );
};
