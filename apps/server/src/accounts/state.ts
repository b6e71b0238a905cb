// Per-server state of the accounts part: the bot check's memory of used solutions and the rate
// limits. Kept per AppContext so that the HTTP routes and the chat bot of one server share them.
import type { AppContext } from '../context';
import { BotCheck } from './bot-check';
import { WindowLimiter } from './rate-limit';

const MINUTE_MS = 60_000;

export interface AccountsState {
  botCheck: BotCheck;
  limits: {
    /** One login link per e-mail address per 30 s (SPEC.md: login re-request wait). */
    loginPerEmail: WindowLimiter;
    /** Failed POST /v1/login attempts per client address: guessing tokens stays hopeless. */
    failedLoginPerAddress: WindowLimiter;
    /** Failed POST /v1/login attempts per user id, from any address. */
    failedLoginPerAccount: WindowLimiter;
    /** Validation mails per user: changing the e-mail address sends one each time. */
    validationMailPerUser: WindowLimiter;
    /** Login links the chat bot mails per chat user (besides loginPerEmail). */
    loginMailPerChatUser: WindowLimiter;
    /** POST /v1/otp per user, amendments and refused submissions included. */
    creationsPerUser: WindowLimiter;
  };
}

const states = new WeakMap<AppContext, AccountsState>();

export function accountsState(ctx: AppContext): AccountsState {
  let state = states.get(ctx);
  if (!state) {
    state = {
      botCheck: new BotCheck(ctx.config.serverSecret),
      limits: {
        loginPerEmail: new WindowLimiter(1, 30_000),
        failedLoginPerAddress: new WindowLimiter(20, 15 * MINUTE_MS),
        failedLoginPerAccount: new WindowLimiter(50, 15 * MINUTE_MS),
        validationMailPerUser: new WindowLimiter(5, 60 * MINUTE_MS),
        loginMailPerChatUser: new WindowLimiter(3, 60 * MINUTE_MS),
        creationsPerUser: new WindowLimiter(10, 60 * MINUTE_MS),
      },
    };
    states.set(ctx, state);
  }
  return state;
}
