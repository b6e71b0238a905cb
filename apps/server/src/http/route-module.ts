// What a route module is: `(app, ctx) => Promise<void>`, owning the routes of one part of the
// product. A leaf file, so route modules and the app that registers them do not import each other.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;
