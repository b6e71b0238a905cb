// What every part of the server is handed: configuration, storage, logger and the event bus.
// Services that other parts call (commands to stations, mail) are attached by main.ts / the test
// harness after they are built, so each part can be tested with only what it needs.
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
  /** Filled by the parts that provide them; see main.ts. */
  services: Partial<Services>;
}

/**
 * Cross-part services. Each part declares its entry here so others can call it without importing
 * its internals. Callers must handle absence (e.g. no broker in a read-only API test).
 */
export interface Services {
  // Declared by their owners (network, accounts) by interface merging in their own files.
  [name: string]: unknown;
}

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
