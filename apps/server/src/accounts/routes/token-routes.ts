// Personal API tokens in the User Console: list, create (the token is in this answer only) and
// revoke. Only the owner of the account named in the path may do any of it.
import {
  ApiTokenCreateBodySchema,
  ApiTokenCreatedResponseSchema,
  ApiTokenListResponseSchema,
  ApiTokenParamsSchema,
  ErrorBodySchema,
  MessageResponseSchema,
  UserIdParamsSchema,
} from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { requireOwner } from '../../http/auth';
import { limitRequests } from '../../http/limits';
import { apiTokens } from '../api-tokens';
import { authErrors, SessionHeadersSchema } from './common';
import { ownUserFirst } from './guards';

/** name (60 characters, escaped) and JSON punctuation */
const TOKEN_BODY_LIMIT = 1024;

export const tokenRoutes: RouteModule = async (app, ctx) => {
  const tokens = apiTokens(ctx);

  app.get(
    '/v1/user/:userId/tokens',
    {
      preValidation: ownUserFirst(ctx, 'params', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'The logged-in user’s API tokens (names and first characters, never the tokens)',
        headers: SessionHeadersSchema,
        params: UserIdParamsSchema,
        response: { 200: ApiTokenListResponseSchema, ...authErrors },
      },
    },
    async (req, reply) => {
      await requireOwner(ctx, req, req.params.userId);
      reply.header('cache-control', 'no-store');
      return tokens.list(req.params.userId);
    },
  );

  app.post(
    '/v1/user/:userId/tokens',
    {
      bodyLimit: TOKEN_BODY_LIMIT,
      ...limitRequests({
        perClient: 30,
        windowMs: 60_000,
        global: { capacity: 300, perSecond: 20 },
      }),
      preValidation: ownUserFirst(ctx, 'params', 'userId'),
      schema: {
        tags: ['accounts'],
        summary:
          'Create a named read token for Authorization: Bearer; the token is in this answer only',
        headers: SessionHeadersSchema,
        params: UserIdParamsSchema,
        body: ApiTokenCreateBodySchema,
        response: { 200: ApiTokenCreatedResponseSchema, ...authErrors, 409: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      await requireOwner(ctx, req, req.params.userId);
      reply.header('cache-control', 'no-store');
      return tokens.create(req.params.userId, req.body.name);
    },
  );

  app.delete(
    '/v1/user/:userId/tokens/:tokenId',
    {
      preValidation: ownUserFirst(ctx, 'params', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'Revoke one of the logged-in user’s API tokens; it is refused from then on',
        headers: SessionHeadersSchema,
        params: ApiTokenParamsSchema,
        response: { 200: MessageResponseSchema, ...authErrors },
      },
    },
    async (req) => {
      await requireOwner(ctx, req, req.params.userId);
      await tokens.revoke(req.params.userId, req.params.tokenId);
      return { message: 'Token revoked' };
    },
  );
};
