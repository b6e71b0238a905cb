// Forwarding to SatNOGS DB (SATNOGS_DB_URL): the sender of the outbox, one per network (elected in
// parts.ts). Without SATNOGS_DB_URL nothing is queued and this part does not start.
import type { Part } from '../part';
import { DEFAULT_FORWARDER_TIMES, SatnogsForwarder, type ForwarderTimes } from './forwarder';
import { forwardingMetricsOf } from './metrics';

export function createSatnogsForwardingPart(times: Partial<ForwarderTimes> = {}): Part {
  return {
    name: 'satnogs-forwarding',
    async start(ctx) {
      const config = ctx.config.satnogs;
      if (!config) return null;
      const log = ctx.log.child({ part: 'satnogs-forwarding' });
      const forwarder = new SatnogsForwarder(
        ctx.database.db,
        config,
        forwardingMetricsOf(ctx),
        log,
        { ...DEFAULT_FORWARDER_TIMES, ...times },
      );
      const stop = new AbortController();
      const running = forwarder.run(stop.signal);
      log.info(
        { url: config.url, token: config.token !== null },
        'forwarding frames to SatNOGS DB',
      );
      return {
        async stop() {
          stop.abort();
          await running;
        },
      };
    },
  };
}

export const satnogsForwardingPart = createSatnogsForwardingPart();
