// Rotating the account-wide MQTT password (the credentials dialog of the User Console).
import { MqttCredentialsResponseSchema, UserIdQuerySchema } from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { requireOwner } from '../../http/auth';
import { rotateMqttPassword } from '../mqtt-password';
import { authErrors, SessionHeadersSchema } from './common';
import { ownUserFirst } from './guards';

export const mqttPasswordRoutes: RouteModule = async (app, ctx) => {
  app.post(
    '/v1/mqttcred/rotate',
    {
      preValidation: ownUserFirst(ctx, 'query', 'userId'),
      schema: {
        tags: ['accounts'],
        summary: 'Replace the account-wide MQTT password; connections using the old one are closed',
        headers: SessionHeadersSchema,
        querystring: UserIdQuerySchema,
        response: { 200: MqttCredentialsResponseSchema, ...authErrors },
      },
    },
    async (req, reply) => {
      await requireOwner(ctx, req, req.query.userId);
      reply.header('cache-control', 'no-store');
      return rotateMqttPassword(ctx, req.query.userId);
    },
  );
};
