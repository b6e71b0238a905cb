// The user's profile, e-mail validation and broker credentials (SPEC.md section 7).
import {
  ErrorBodySchema,
  MessageResponseSchema,
  MqttCredentialsResponseSchema,
  UserIdParamsSchema,
  UserIdQuerySchema,
  UserResponseSchema,
  UserUpdateBodySchema,
} from '@tinygs/contracts';
import { z } from 'zod';
import type { RouteModule } from '../../http/route-module';
import { notFound } from '../../http/errors';
import { requireOwner } from '../../http/auth';
import { revokeSessions } from '../../repositories/sessions';
import { findUserById } from '../../repositories/users';
import { getProfile, updateProfile, validateEmail } from '../profile';
import { mqttCredentialsOf } from '../users';
import { authErrors, SessionHeadersSchema } from './common';
import { ownUserFirst } from './guards';
import { BODY_LIMITS, limitRequests } from '../../http/limits';

/** The pages a validation link opens. */
export const VALIDATION_PAGES = {
  changed:
    'Thank you: this is now your login address. Every other session of your account was logged out.',
  validated: 'Thank you: your e-mail address is validated.',
  taken:
    'This address is now used by another account, so your login address was not changed. Please choose another one.',
  invalid: 'This validation link is invalid, was already used or has expired.',
} as const;

export const LOGGED_OUT_EVERYWHERE = 'Logged out everywhere';

const ValidateQuerySchema = z.object({ token: z.string().min(1, 'token is required').max(200) });

function page(productName: string, publicUrl: string, message: string): string {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const name = productName.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title></head><body style="font-family: sans-serif"><h2>${name}</h2><p>${escaped}</p><p><a href="${publicUrl}/">Continue to ${name}</a></p></body></html>`;
}

export const profileRoutes: RouteModule = async (app, ctx) => {
  app.get(
    '/v1/user',
    {
      preValidation: ownUserFirst(ctx, 'query', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'The logged-in user’s e-mail preferences and offline alerts',
        headers: SessionHeadersSchema,
        querystring: UserIdQuerySchema,
        response: { 200: UserResponseSchema, ...authErrors },
      },
    },
    async (req) => {
      await requireOwner(ctx, req, req.query.userId);
      return getProfile(ctx, req.query.userId);
    },
  );

  app.put(
    '/v1/user/:userId',
    {
      bodyLimit: BODY_LIMITS.profile,
      // A changed address gets a validation mail: bounded per client before the body is read.
      ...limitRequests({
        perClient: 30,
        windowMs: 60_000,
        global: { capacity: 300, perSecond: 20 },
      }),
      preValidation: ownUserFirst(ctx, 'params', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'Save e-mail preferences and offline alerts; a new address gets a validation link',
        headers: SessionHeadersSchema,
        params: UserIdParamsSchema,
        body: UserUpdateBodySchema,
        response: { 200: UserResponseSchema, ...authErrors, 409: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const session = await requireOwner(ctx, req, req.params.userId);
      return updateProfile(ctx, session, req.body, reply);
    },
  );

  app.get(
    '/v1/user/validate',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'Validate an e-mail address (the link in the validation mail); answers a small HTML page',
        querystring: ValidateQuerySchema,
        produces: ['text/html'],
        response: {
          200: z.string().describe('HTML page'),
          400: z.union([z.string(), ErrorBodySchema]),
        },
      },
    },
    async (req, reply) => {
      const outcome = await validateEmail(ctx, req.query.token);
      const { productName, publicUrl } = ctx.config;
      reply.type('text/html; charset=utf-8');
      if (outcome === 'invalid' || outcome === 'taken')
        return reply.status(400).send(page(productName, publicUrl, VALIDATION_PAGES[outcome]));
      return reply.send(page(productName, publicUrl, VALIDATION_PAGES[outcome]));
    },
  );

  app.post(
    '/v1/user/:userId/logout-all',
    {
      preValidation: ownUserFirst(ctx, 'params', 'userId'),
      schema: {
        tags: ['accounts'],
        summary:
          'Log out everywhere: end every session of the user, this one included, and withdraw unused login links',
        headers: SessionHeadersSchema,
        params: UserIdParamsSchema,
        response: { 200: MessageResponseSchema, ...authErrors },
      },
    },
    async (req) => {
      const session = await requireOwner(ctx, req, req.params.userId);
      const ended = await revokeSessions(ctx.database.db, session.userId, null);
      ctx.log.info({ userId: session.userId, endedSessions: ended }, 'logged out everywhere');
      return { message: LOGGED_OUT_EVERYWHERE };
    },
  );

  app.get(
    '/v1/mqttcred',
    {
      preValidation: ownUserFirst(ctx, 'query', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'The MQTT broker credentials for the user’s station firmware',
        headers: SessionHeadersSchema,
        querystring: UserIdQuerySchema,
        response: { 200: MqttCredentialsResponseSchema, ...authErrors },
      },
    },
    async (req, reply) => {
      await requireOwner(ctx, req, req.query.userId);
      const user = await findUserById(ctx.database.db, req.query.userId);
      if (!user) throw notFound('User not found');
      reply.header('cache-control', 'no-store');
      return mqttCredentialsOf(ctx, user);
    },
  );
};
