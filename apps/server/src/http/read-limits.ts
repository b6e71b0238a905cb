// Public reads (every GET route tagged `public`) are rate limited per client address, or per
// personal API token when the request carries `Authorization: Bearer TOKEN`: a token has a budget
// of its own, higher than an address's. An unknown or revoked token is refused (401) after it was
// counted against the address, so guessing tokens costs the guesser its own budget. Requests
// with a token are logged with its id and name, never the token. Anonymous reads from loopback
// (the operator's own tools, benchmarks) are not counted, as on the broker.
import { API_TOKEN_TEXTS } from '@tinygs/contracts';
import type {
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preParsingHookHandler,
  RouteOptions,
} from 'fastify';
import { apiTokens, type TokenCaller } from '../accounts/api-tokens';
import type { AppContext } from '../context';
import { clientKey, isLoopback } from '../lib/address-key';
import type { App } from './route-module';
import { HttpError } from './errors';
import { TooManyRequests } from './limits';

export const READ_RATE_WINDOW_MS = 60_000;
/** The OpenAPI security scheme's name. */
export const API_TOKEN_SCHEME = 'apiToken';
const MAX_AUTHORIZATION_CHARS = 512;
const REFUSED = 'refused';

/** The token of an `Authorization: Bearer` header; undefined without one (other schemes too). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^bearer(?:[ \t]+|$)/i.exec(header);
  if (!match) return undefined;
  return header.slice(match[0].length, MAX_AUTHORIZATION_CHARS).trim();
}

function hooks<T>(existing: T | T[] | undefined): T[] {
  if (existing === undefined) return [];
  return Array.isArray(existing) ? existing : [existing];
}

/** Adds the limits to every public read route registered after this call. */
export function limitPublicReads(app: App, ctx: AppContext): void {
  const tokens = apiTokens(ctx);
  const callers = new WeakMap<FastifyRequest, TokenCaller | typeof REFUSED>();
  const callerOf = (req: FastifyRequest): TokenCaller | null => {
    const c = callers.get(req);
    return typeof c === 'object' ? c : null;
  };
  const { perAddress, perToken } = ctx.config.readLimits;

  // Callback hooks: a read without a token (nearly all of them) costs no promise here.
  const identify = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      done();
      return;
    }
    tokens.resolve(token).then((caller) => {
      if (!caller) {
        callers.set(req, REFUSED);
      } else {
        callers.set(req, caller);
        req.log = req.log.child({ apiToken: { id: caller.id, name: caller.name } });
        reply.log = req.log;
      }
      done();
    }, done);
  };
  const limit = app.rateLimit({
    timeWindow: READ_RATE_WINDOW_MS,
    max: (req) => (callerOf(req) ? perToken : perAddress),
    keyGenerator: (req) => {
      const caller = callerOf(req);
      return caller ? `token:${caller.id}` : `read:${clientKey(req.ip)}`;
    },
    errorResponseBuilder: (req) =>
      new TooManyRequests(
        callerOf(req)
          ? 'Too many requests with this API token. Please slow down.'
          : 'Too many requests from your address. Please slow down, or use a personal API token.',
      ),
  });
  const refuse = <P>(
    req: FastifyRequest,
    reply: FastifyReply,
    payload: P,
    done: (err: Error | null, payload?: P) => void,
  ) => {
    if (callers.get(req) === REFUSED) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"');
      done(new HttpError(401, API_TOKEN_TEXTS.invalid));
      return;
    }
    done(null, payload);
  };
  // Anonymous reads from loopback are not counted: they skip the limiter's per-request work
  // altogether (this is the only way in to `limit`).
  const limitUnlessLocal = (
    req: FastifyRequest,
    reply: FastifyReply,
    done: (err?: Error) => void,
  ) => {
    if (!callers.has(req) && isLoopback(req.ip)) {
      done();
      return;
    }
    (limit as unknown as (req: FastifyRequest, reply: FastifyReply) => Promise<void>)(
      req,
      reply,
    ).then(() => done(), done);
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = hooks(route.method);
    if (!methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const schema = route.schema as { tags?: string[]; security?: unknown } | undefined;
    if (!schema?.tags?.includes('public')) return;
    // A route with a limit of its own (search) keeps it: @fastify/rate-limit counts a request once,
    // so the shared read budget placed first would stand in for the route's stricter one.
    const ownLimit = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit !== undefined;
    route.onRequest = [
      identify,
      ...(ownLimit ? [] : [limitUnlessLocal]),
      ...hooks(route.onRequest),
    ] as onRequestHookHandler[];
    route.preParsing = [refuse, ...hooks(route.preParsing)] as preParsingHookHandler[];
    // Anonymous or with a token: both are documented.
    schema.security = [{}, { [API_TOKEN_SCHEME]: [] }];
  });
}
