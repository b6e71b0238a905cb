// Limits every request meets before the server does any work for it: body sizes, time-outs, and
// request rates per client (by address, see lib/address-key) and overall. Rates are checked in
// onRequest (per client, @fastify/rate-limit) and preParsing (the global ceiling), both before
// the body is read, so a refused request costs almost nothing. docs/SECURITY.md lists them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../lib/address-key';
import { TokenBucket, type BucketSize } from '../lib/token-bucket';
import { HttpError } from './errors';

/**
 * Default JSON body limit: above the largest valid body of any route (an Operate body with a
 * 4096-character modem_conf, every character escaped, is under 9 KiB). Routes with smaller
 * bodies set their own (BODY_LIMITS). Multipart uploads are bounded by @fastify/multipart.
 */
export const JSON_BODY_LIMIT = 16 * 1024;

/** Per-route body limits in bytes, each well above the largest valid body of that route. */
export const BODY_LIMITS = {
  /** e-mail (254) + bot-check solution (4096) */
  weblogin: 8 * 1024,
  /** token (200) + user id (20) */
  login: 1024,
  /** code, name, location, password, time zone */
  otp: 2 * 1024,
  /** e-mail with markup allowance (1016) + two short fields */
  profile: 4 * 1024,
  /** 340 base64 characters */
  tx: 1024,
} as const;

/** Time-outs of the HTTP server (node:http), in milliseconds. */
export const HTTP_TIMEOUTS = {
  /** the whole request, headers and body, must arrive within this (slow-loris) */
  request: 30_000,
  /** the headers must arrive within this */
  headers: 15_000,
  /** an idle kept-alive connection is closed after this */
  keepAlive: 10_000,
} as const;

/** The 429 answer: Retry-After is set by the caller. */
export class TooManyRequests extends HttpError {
  constructor(message: string) {
    super(429, message);
  }
}

export interface RequestLimit {
  /** requests one client (address; IPv6 /64) may make per window */
  perClient: number;
  windowMs: number;
  /** every client together: a burst of `capacity`, then `perSecond` */
  global: BucketSize;
  /** the 429 text for a client over its share */
  message?: string;
}

const CLIENT_MESSAGE = 'Too many requests from your address. Please try again later.';
const GLOBAL_MESSAGE = 'The server is busy. Please try again in a moment.';

/**
 * Route options that rate-limit one route before its body is parsed: `config.rateLimit` for
 * @fastify/rate-limit (per client, onRequest) and a preParsing hook for the global ceiling. The
 * per-client check runs first, so a client over its share does not use up everyone's.
 */
export function limitRequests(limit: RequestLimit) {
  const ceiling = new TokenBucket(limit.global, Date.now());
  const message = limit.message ?? CLIENT_MESSAGE;
  return {
    config: {
      rateLimit: {
        max: limit.perClient,
        timeWindow: limit.windowMs,
        keyGenerator: (req: FastifyRequest) => clientKey(req.ip),
        errorResponseBuilder: () => new TooManyRequests(message),
      },
    },
    preParsing: async <P>(_req: FastifyRequest, reply: FastifyReply, payload: P): Promise<P> => {
      if (!ceiling.take(Date.now())) {
        reply.header('retry-after', '1');
        throw new TooManyRequests(GLOBAL_MESSAGE);
      }
      return payload;
    },
  };
}
