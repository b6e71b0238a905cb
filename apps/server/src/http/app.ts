// Builds the Fastify application: validation and serialisation through the contracts schemas,
// one error shape, security headers, compression, the OpenAPI document and reference page,
// every route module, and the web app with its history-mode fallback.
import { createReadStream, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyError } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { AppContext } from '../context';
import { sharedRateLimit } from '../cluster/shared-limits';
import { isRedisOutage, SharedStateUnavailable } from '../cluster/shared-state';
import { REPO_ROOT } from '../config';
import { pingCounters } from '../repositories/counters';
import { HttpError } from './errors';
import { HTTP_TIMEOUTS, JSON_BODY_LIMIT } from './limits';
import type { App } from './route-module';
import { API_TOKEN_SCHEME, limitPublicReads } from './read-limits';
import { routeModules } from './routes';

/** Paths that belong to the API; everything else under GET falls back to the web app. */
const API_PREFIXES = [
  '/v1/',
  '/v2/',
  '/sse/',
  '/weblogin',
  '/credentials',
  '/healthz',
  '/metrics',
  '/openapi.json',
  '/docs',
  '/altcha',
  '/images/',
  '/pictures/',
  '/viewer',
];

function isDatabaseOutage(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  const code = e.code ?? '';
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08003',
      '08006',
      '08001',
      '08004',
      'SQLITE_BUSY',
      'SQLITE_IOERR',
    ].includes(code) ||
    /Connection terminated|connect ECONNREFUSED|database system is (starting up|shutting down)/i.test(
      e.message ?? '',
    )
  );
}

/**
 * Whether any string in a parsed request part holds U+0000. Bodies are bounded, so the walk is too;
 * it keeps its own stack, as a body of nested brackets within the limit is deeper than the call stack.
 */
function containsNul(root: unknown): boolean {
  if (root === null || root === undefined) return false;
  if (typeof root === 'string') return root.includes('\u0000');
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      pending.push(...(value as unknown[]));
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (key.includes('\u0000')) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The headers a helmet middleware sets, collected once: with fixed directives its answer is the
 * same for every request.
 */
function securityHeaderSet(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  let finished = false;
  middleware({} as IncomingMessage, collector as unknown as ServerResponse, (err) => {
    failure = err;
    finished = true;
  });
  if (!finished || failure)
    throw new Error('helmet did not produce its headers at once', { cause: failure });
  return headers;
}

/** A hop count trusts that many proxies nearest to the server (fastify's own rule for a number). */
function trustProxyOption(
  trust: AppContext['config']['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export async function buildApp(ctx: AppContext): Promise<App> {
  const app: App = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    // Routes with smaller bodies set their own limit (http/limits.ts).
    bodyLimit: JSON_BODY_LIMIT,
    // TRUST_PROXY: req.ip is then the client address from X-Forwarded-For (docs/OPERATIONS.md).
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    requestTimeout: HTTP_TIMEOUTS.request,
    keepAliveTimeout: HTTP_TIMEOUTS.keepAlive,
    // Station ids ({name}@{userId}) and satellite names travel as path parameters.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();
  app.server.headersTimeout = HTTP_TIMEOUTS.headers;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof HttpError) {
      return reply
        .status(err.statusCode)
        .send({ error: err.message, ...(err.issues ? { issues: err.issues } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join(
          '.',
        ),
        message: v.message ?? 'invalid',
      }));
      return reply.status(400).send({
        error: `Invalid ${err.validationContext ?? 'request'}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
      });
    }
    if ((err as { code?: string }).code === '57014') {
      // PostgreSQL cancelled a statement that ran past DATABASE_STATEMENT_TIMEOUT_MS.
      req.log.warn({ err, url: req.routeOptions.url }, 'statement timed out');
      return reply
        .status(503)
        .send({ error: 'The request took too long. Please narrow it down or try again later.' });
    }
    if ((err as { code?: string }).code === 'READS_BUSY') {
      // Every client's long reads together have filled the SQLite read thread's queue.
      req.log.warn({ url: req.routeOptions.url }, 'read thread queue full');
      return reply.status(503).send({ error: 'The server is busy. Please try again shortly.' });
    }
    if (isRedisOutage(err)) {
      req.log.error({ err }, 'shared state (Redis) unavailable');
      return reply.status(503).send({ error: new SharedStateUnavailable().message });
    }
    if (isDatabaseOutage(err)) {
      req.log.error({ err }, 'database unavailable');
      return reply.status(503).send({
        error:
          'Service temporarily unavailable: the database cannot be reached. Please try again shortly.',
      });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, cause: err.cause }, 'response does not match its schema');
      return reply.status(500).send({ error: 'Internal server error' });
    }
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500
        ? err.statusCode
        : 500;
    if (status === 500) {
      req.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ error: 'Internal server error' });
    }
    // Fastify's own client errors (bad JSON, too large, unsupported media type...).
    return reply.status(status).send({ error: err.message });
  });

  // Security headers: the set helmet's middleware writes for this configuration, worked out once
  // here (every directive is fixed, nothing depends on the request) and given to each reply as
  // one object, rather than running helmet's dozen middlewares per request.
  const securityHeaders = securityHeaderSet(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // MUI (emotion) injects style elements at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Map tiles come from the configured tile servers.
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          connectSrc: ["'self'"],
          workerSrc: ["'self'", 'blob:'],
          frameSrc: ["'self'"],
          // Only the app itself may frame our pages (the viewer is embedded by the app).
          frameAncestors: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      frameguard: { action: 'sameorigin' },
      crossOriginEmbedderPolicy: false,
      // Only a server reached over https may tell browsers to insist on it.
      hsts: ctx.config.publicUrl.startsWith('https:')
        ? { maxAge: 180 * 24 * 3600, includeSubDomains: false }
        : false,
    }),
  );
  // Request bodies are not decompressed (below): a compressed one is refused before it is read.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(securityHeaders);
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      done(new HttpError(415, 'Compressed request bodies are not accepted.'));
      return;
    }
    done();
  });
  // Replies are compressed; request bodies are not decompressed: no client of the API sends
  // compressed bodies, and inflating them is work (and memory) an attacker could ask for.
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
  });
  // PostgreSQL text cannot hold NUL: refused here for every route rather than failing in storage.
  app.addHook('preValidation', (req, _reply, done) => {
    if (containsNul(req.params) || containsNul(req.query) || containsNul(req.body)) {
      done(new HttpError(400, 'Text must not contain NUL characters.'));
      return;
    }
    done();
  });
  // Per-route limits only (http/limits.ts); clients are keyed by address, IPv6 by /64. With
  // REDIS_URL the counts are shared by the instances (cluster/shared-limits.ts).
  await app.register(rateLimit, { global: false, cache: 50_000, ...sharedRateLimit(app, ctx) });
  // Public reads: per address, or per personal API token (http/read-limits.ts).
  limitPublicReads(app, ctx);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${ctx.config.productName} API`,
        description:
          'Public data, accounts and station control of the ground-station network. Authenticated calls carry the headers `userId` and `sessionToken`.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          [API_TOKEN_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal API token from the User Console (`tgs_...`). Optional on public reads: with it they count against the token’s own, higher rate limit instead of the client address’s; an unknown or revoked token is answered 401.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Route patterns, not URLs, label the histogram: ids in paths would make a series per station.
  app.addHook('onResponse', (req, reply, done) => {
    ctx.instanceMetrics.observeRequest(
      req.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get('/healthz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await pingCounters(ctx.database.db);
      return { status: 'ok' };
    } catch (err) {
      reply.log.warn({ err }, 'health check: database unavailable');
      return reply.status(503).send({ status: 'unavailable', error: 'database unavailable' });
    }
  });

  for (const register of routeModules) await register(app, ctx);

  // Static files: catalogue images shipped in seed/, the viewer and the web app (uploaded pictures:
  // accounts/routes/picture-routes.ts).
  await app.register(fastifyStatic, {
    root: join(REPO_ROOT, 'apps/server/seed/images'),
    prefix: '/images/',
    decorateReply: false,
  });
  if (existsSync(ctx.config.viewerDist)) {
    await app.register(fastifyStatic, {
      root: ctx.config.viewerDist,
      prefix: '/viewer/',
      decorateReply: false,
    });
    // The app embeds /viewer?sat=...; with ignoreTrailingSlash this route also answers /viewer/,
    // so it serves the page itself (its assets are absolute under /viewer/) instead of redirecting.
    const viewerPage = join(ctx.config.viewerDist, 'index.html');
    app.get('/viewer', { schema: { hide: true } }, (_req, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(createReadStream(viewerPage)),
    );
  }
  const hasWeb = existsSync(join(ctx.config.webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: ctx.config.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset: sent from disk, not compressed per request.
      preCompressed: true,
      setHeaders(reply, path) {
        // Hashed bundles never change; index.html must always be revalidated.
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => path.startsWith(p));
    if (hasWeb && req.method === 'GET' && !isApi && !/\.[a-z0-9]{2,5}$/i.test(path)) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', ctx.config.webDist);
    }
    return reply.status(404).send({ error: `Not found: ${req.method} ${path}` });
  });

  return app;
}
