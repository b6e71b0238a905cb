// Per-server state of the accounts part: the bot check's memory of used solutions and the rate
// limits. Kept per AppContext so that the HTTP routes and the chat bot of one server share them.
// With REDIS_URL the used solutions and the login, bot-mail and code-submission limits live in
// Redis, shared by the instances (cluster/shared-limits.ts); the validation-mail limit stays per instance (docs/DEPLOYMENT.md).
import type { AppContext } from '../context';
import { SharedWindowLimiter, sharedUsedSolutions } from '../cluster/shared-limits';
import { perContext } from '../lib/per-context';
import { BotCheck } from './bot-check';
import { WindowLimiter, type Limiter } from './rate-limit';

const MINUTE_MS = 60_000;

export interface AccountsState {
  botCheck: BotCheck;
  limits: {
    /** One login link per e-mail address per 30 s (SPEC.md: login re-request wait). */
    loginPerEmail: Limiter;
    /** Failed POST /v1/login attempts per client address: guessing tokens stays hopeless. */
    failedLoginPerAddress: Limiter;
    /** Failed POST /v1/login attempts per user id, from any address. */
    failedLoginPerAccount: Limiter;
    /** Validation mails per user: changing the e-mail address sends one each time. */
    validationMailPerUser: WindowLimiter;
    /** Login links the chat bot mails per chat user (besides loginPerEmail). */
    loginMailPerChatUser: Limiter;
    /** POST /v1/otp per user, amendments and refused submissions included. */
    creationsPerUser: Limiter;
  };
}

export const accountsState = perContext((ctx: AppContext): AccountsState => {
  const shared = ctx.services.shared;
  const limiter = (name: string, limit: number, windowMs: number): Limiter =>
    shared
      ? new SharedWindowLimiter(shared, name, limit, windowMs)
      : new WindowLimiter(limit, windowMs);
  return {
    botCheck: new BotCheck(ctx.config.serverSecret, shared && sharedUsedSolutions(shared)),
    limits: {
      loginPerEmail: limiter('login-per-email', 1, 30_000),
      failedLoginPerAddress: limiter('failed-login-per-address', 20, 15 * MINUTE_MS),
      failedLoginPerAccount: limiter('failed-login-per-account', 50, 15 * MINUTE_MS),
      validationMailPerUser: new WindowLimiter(5, 60 * MINUTE_MS),
      loginMailPerChatUser: limiter('login-mail-per-chat-user', 3, 60 * MINUTE_MS),
      creationsPerUser: limiter('creations-per-user', 10, 60 * MINUTE_MS),
    },
  };
});
