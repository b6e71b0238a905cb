// Bot check challenge, login-link requests, login and logout (SPEC.md section 7).
import {
  CAPTCHA_ERRORS,
  ErrorBodySchema,
  LoginRequestSchema,
  LoginResponseSchema,
  MessageResponseSchema,
  WebLoginRequestSchema,
} from '@tinygs/contracts';
import type { RouteModule } from '../../http/route-module';
import { badRequest, unauthorized } from '../../http/errors';
import { requireUser } from '../../http/auth';
import { AltchaChallengeSchema } from '../bot-check';
import { login, logout, requestWebLogin, WEBLOGIN_MESSAGE } from '../login';
import { BODY_LIMITS, limitRequests } from '../../http/limits';
import { enforceLimit } from '../rate-limit';
import { accountsState } from '../state';
import { clientAddress, SessionHeadersSchema } from './common';

const LOGIN_FAILED = 'This login link is invalid, was already used or has expired.';
const EMAIL_WAIT =
  'A login link was just requested for this address. Please wait 30 seconds and try again.';
const ADDRESS_WAIT = 'Too many login requests from your address. Please try again later.';
const FAILED_WAIT = 'Too many failed logins from your address. Please try again later.';
const ACCOUNT_WAIT = 'Too many failed logins for this account. Please try again later.';
const MINUTE_MS = 60_000;

export const loginRoutes: RouteModule = async (app, ctx) => {
  const { botCheck, limits } = accountsState(ctx);

  app.get(
    '/altcha/challenge',
    {
      schema: {
        tags: ['accounts'],
        summary: 'A proof-of-work challenge for the bot check (ALTCHA widget)',
        response: { 200: AltchaChallengeSchema },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return botCheck.createChallenge();
    },
  );

  app.post(
    '/weblogin',
    {
      bodyLimit: BODY_LIMITS.weblogin,
      // Each request may send a mail: 10 per client per 10 minutes, about 2 a second overall.
      ...limitRequests({
        perClient: 10,
        windowMs: 10 * MINUTE_MS,
        global: { capacity: 100, perSecond: 2 },
        message: ADDRESS_WAIT,
      }),
      schema: {
        tags: ['accounts'],
        summary:
          'Request a login link by e-mail (same answer whether or not the address is registered)',
        body: WebLoginRequestSchema,
        response: { 200: MessageResponseSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const check = await botCheck.verify(req.body.captcha);
      if (check === 'expired') throw badRequest(CAPTCHA_ERRORS.expired);
      if (check !== 'ok') throw badRequest(CAPTCHA_ERRORS.error);
      const email = req.body.email.toLowerCase();
      // Limited per address whether or not it is registered, so the limit reveals nothing either.
      await enforceLimit(reply, limits.loginPerEmail, email, EMAIL_WAIT);
      requestWebLogin(ctx, email);
      return { message: WEBLOGIN_MESSAGE };
    },
  );

  app.post(
    '/v1/login',
    {
      bodyLimit: BODY_LIMITS.login,
      ...limitRequests({
        perClient: 60,
        windowMs: MINUTE_MS,
        global: { capacity: 600, perSecond: 50 },
      }),
      schema: {
        tags: ['accounts'],
        summary: 'Exchange a login link token for a session token',
        body: LoginRequestSchema,
        response: {
          200: LoginResponseSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          429: ErrorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const address = clientAddress(req);
      // Only failures count, so a household logging in repeatedly is never locked out.
      await enforceLimit(reply, limits.failedLoginPerAddress, address, FAILED_WAIT, false);
      // Per account too, higher than per address so a guesser elsewhere rarely locks its owner
      // out (tokens are 256-bit: guessing is hopeless, this bounds the lookups it costs).
      const account = req.body.userId;
      await enforceLimit(reply, limits.failedLoginPerAccount, account, ACCOUNT_WAIT, false);
      const sessionToken = await login(ctx, req.body.loginToken, req.body.userId);
      if (!sessionToken) {
        await limits.failedLoginPerAddress.record(address);
        await limits.failedLoginPerAccount.record(account);
        throw unauthorized(LOGIN_FAILED);
      }
      return { sessionToken };
    },
  );

  app.get(
    '/v1/logout',
    {
      schema: {
        tags: ['accounts'],
        summary: 'End the session',
        headers: SessionHeadersSchema,
        response: { 200: MessageResponseSchema, 401: ErrorBodySchema },
      },
    },
    async (req) => {
      const user = await requireUser(ctx, req);
      const token = req.headers.sessiontoken;
      if (typeof token === 'string') await logout(ctx, user.userId, token);
      return { message: 'Logged out' };
    },
  );
};
