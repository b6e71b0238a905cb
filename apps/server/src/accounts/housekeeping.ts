// Expired sessions, login tokens and validation tokens can never be used again; deleting them keeps
// the token tables as small as the number of live sessions.
import type { Part } from '../part';
import { deleteExpiredTokens } from '../repositories/sessions';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export const tokenHousekeepingPart: Part = {
  name: 'token-housekeeping',
  async start(ctx) {
    const sweep = () =>
      deleteExpiredTokens(ctx.database.db, Date.now()).catch((err: unknown) =>
        ctx.log.warn({ err }, 'could not delete expired tokens'),
      );
    await sweep();
    const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
      },
    };
  },
};
