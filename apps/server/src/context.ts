// What every part of the server is handed: configuration, storage, logger and the event bus.
// Services that other parts call (commands to stations, mail, shared state) are what a running
// part returns; server.ts attaches them, so each part can be tested with only what it needs.
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/connect';
import { EventBus } from './events';
import { createInstanceMetrics, type InstanceMetrics } from './ops/metrics';

export interface AppContext {
  config: Config;
  database: Db;
  log: Logger;
  events: EventBus;
  /** this instance's Prometheus registry (GET /metrics) */
  instanceMetrics: InstanceMetrics;
  /** What the running parts offer (server.ts attaches each part's `services`). */
  services: Partial<Services>;
}

/**
 * Cross-part services, each declared by the part that offers it (`declare module '../context'`
 * in mail/part.ts, network/part.ts, cluster/shared-state.ts), so that callers use them without
 * importing the part's internals and this file imports none of them. Callers must handle absence
 * (e.g. no broker in a read-only API test).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Services {}

/** A context with a new event bus and metrics that read the network part once it is running. */
export function createAppContext(config: Config, database: Db, log: Logger): AppContext {
  const services: AppContext['services'] = {};
  const instanceMetrics = createInstanceMetrics(
    {
      network: () => services.network?.metrics,
      queueDepth: () => services.network?.queueDepth() ?? 0,
    },
    config.instanceId,
  );
  return { config, database, log, events: new EventBus(), instanceMetrics, services };
}
