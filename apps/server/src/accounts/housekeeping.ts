// Expired sessions, login tokens and validation tokens can never be used again; deleting them keeps
// the token tables as small as the number of live sessions. Station creations by one-time code are
// finished within an hour; their rows (and any encrypted admin password left in one) go a day later.
import type { Part } from '../part';
import { deleteCreationsBefore } from '../repositories/creations';
import { deleteExpiredTokens } from '../repositories/sessions';
import { CREATION_LIMITS } from './creation';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export const tokenHousekeepingPart: Part = {
  name: 'token-housekeeping',
  async start(ctx) {
    const sweep = async () => {
      const now = Date.now();
      await deleteExpiredTokens(ctx.database.db, now).catch((err: unknown) =>
        ctx.log.warn({ err }, 'could not delete expired tokens'),
      );
      await deleteCreationsBefore(ctx.database.db, now - CREATION_LIMITS.retentionMs).catch(
        (err: unknown) => ctx.log.warn({ err }, 'could not delete old station creations'),
      );
    };
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
