// Prometheus figures of the forwarding to SatNOGS DB, kept as plain numbers by the sender and copied
// into this instance's registry when it is scraped. One set per server context: the part starts
// again each time this instance is elected, and its metrics must be registered once.
import { Counter, Gauge, type Registry } from 'prom-client';
import { perContext } from '../lib/per-context';
import type { Unsendable } from './sids';

export interface ForwardingMetrics {
  /** frames SatNOGS DB accepted */
  sent: number;
  /** tries that failed and will be repeated (network, time-out, 5xx, 429, 401, 403) */
  failedTries: number;
  /** frames SatNOGS DB refused for good (other 4xx), dropped */
  refused: number;
  /** frames dropped because the outbox reached SATNOGS_OUTBOX_MAX_ROWS */
  dropped: number;
  /** rows that could not be sent at all, by reason */
  skipped: Record<Unsendable, number>;
  /** rows in the outbox at the sender's last look */
  depth: number;
}

/** The figures, registered in `registry`; once per registry (prom-client refuses a second time). */
export function createForwardingMetrics(registry: Registry): ForwardingMetrics {
  const m: ForwardingMetrics = {
    sent: 0,
    failedTries: 0,
    refused: 0,
    dropped: 0,
    skipped: { gone: 0, 'opted-out': 0, 'no-norad': 0, 'crc-error': 0 },
    depth: 0,
  };
  const totals: [string, string, () => number][] = [
    ['tinygs_satnogs_frames_sent_total', 'frames SatNOGS DB accepted', () => m.sent],
    [
      'tinygs_satnogs_failed_tries_total',
      'tries to send a frame to SatNOGS DB that failed and are repeated',
      () => m.failedTries,
    ],
    [
      'tinygs_satnogs_frames_refused_total',
      'frames SatNOGS DB refused for good (4xx), dropped',
      () => m.refused,
    ],
    [
      'tinygs_satnogs_frames_dropped_total',
      'frames dropped unsent because the outbox reached SATNOGS_OUTBOX_MAX_ROWS',
      () => m.dropped,
    ],
  ];
  for (const [name, help, read] of totals) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
  new Counter({
    name: 'tinygs_satnogs_frames_skipped_total',
    help: 'queued frames not sent: reception deleted, station opted out, no NORAD id',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(m.skipped)) this.inc({ reason }, n);
    },
  });
  new Gauge({
    name: 'tinygs_satnogs_outbox_depth',
    help: 'frames waiting for SatNOGS DB, as the sender last saw them (the instance that sends)',
    registers: [registry],
    collect() {
      this.set(m.depth);
    },
  });
  return m;
}

/** This context's figures, in its instance registry (GET /metrics). */
export const forwardingMetricsOf = perContext((ctx) =>
  createForwardingMetrics(ctx.instanceMetrics.registry),
);
