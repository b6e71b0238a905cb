// New stations by one-time code: the owner's calls and the firmware's credential poll.
import {
  CreationPayloadSchema,
  ErrorBodySchema,
  FirmwareCredentialsQuerySchema,
  FirmwareCredentialsResponseSchema,
  StationCreatedResponseSchema,
  UserIdQuerySchema,
} from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { requireOwner, requireUser } from '../../http/auth';
import { collectCredentials, creationStatus, submitCreation } from '../creation';
import { BODY_LIMITS, limitRequests } from '../../http/limits';
import { authErrors, SessionHeadersSchema } from './common';
import { ownUserFirst } from './guards';

const POLL_WAIT =
  'Too many requests from your address. A station asks every 15 seconds; please slow down.';

const MINUTE_MS = 60_000;

export const creationRoutes: RouteModule = async (app, ctx) => {
  app.post(
    '/v1/otp',
    {
      bodyLimit: BODY_LIMITS.otp,
      ...limitRequests({
        perClient: 30,
        windowMs: MINUTE_MS,
        global: { capacity: 300, perSecond: 20 },
      }),
      preValidation: ownUserFirst(ctx, 'query', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'Start creating a station with the one-time code it shows',
        headers: SessionHeadersSchema,
        querystring: UserIdQuerySchema,
        body: CreationPayloadSchema,
        response: { 200: StationCreatedResponseSchema, ...authErrors, 409: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      await requireOwner(ctx, req, req.query.userId);
      return submitCreation(ctx, req.query.userId, req.body, reply);
    },
  );

  app.get(
    '/v1/station_created',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Outcome of the user’s latest station creation (polled every 20 s)',
        headers: SessionHeadersSchema,
        response: { 200: StationCreatedResponseSchema, 401: ErrorBodySchema },
      },
    },
    async (req) => {
      const user = await requireUser(ctx, req);
      return creationStatus(ctx, user.userId);
    },
  );

  app.get(
    '/credentials',
    {
      // Codes are only 6 digits: unthrottled polling could sweep them all within the 30 minutes.
      // A station asks every 15 s; 20 a minute leaves room for a few behind one address.
      ...limitRequests({
        perClient: 20,
        windowMs: MINUTE_MS,
        global: { capacity: 500, perSecond: 50 },
        message: POLL_WAIT,
      }),
      schema: {
        tags: ['stations'],
        summary:
          'Firmware: collect MQTT credentials and settings for a one-time code (404 until submitted; once)',
        querystring: FirmwareCredentialsQuerySchema,
        response: {
          200: FirmwareCredentialsResponseSchema,
          400: ErrorBodySchema,
          404: ErrorBodySchema,
          429: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return collectCredentials(ctx, req.query.otp);
    },
  );
};
