// The station network part: broker, station lifecycle, ingest and the command service, wired
// together and started with the server. Intervals are options so tests need not wait minutes.
import { MQTT_MAX_PACKET_BYTES, STATION_OFFLINE_AFTER_MS } from '@tinygs/contracts';
import type { AppContext } from '../context';
import { decryptSecret, safeEqual } from '../lib/crypto';
import type { Part, RunningPart } from '../parts';
import { COUNTERS, setCounter } from '../repositories/counters';
import { loadStationIds, markAllStationsOffline } from '../repositories/stations';
import { findUserById } from '../repositories/users';
import { startBroker, type RunningBroker } from './broker';
import { StationCommands, type CommandService } from './commands';
import { BatchWriter, DEFAULT_BATCH_WRITER_OPTIONS } from './ingest/batch-writer';
import { inProcessStore, sqliteThreadStore } from './ingest/batch-store';
import { SatelliteCatalogue } from './ingest/catalogue';
import { MergeIndex } from './ingest/merge-index';
import { RxIngest } from './ingest/rx-ingest';
import { DEFAULT_FLOOD_LIMIT, MessageRouter, type FloodLimit } from './message-router';
import { NetworkMetrics } from './metrics';
import { StationRegistry } from './station-registry';

export interface NetworkService {
  /** where the embedded broker listens (the simulator and tests dial it) */
  mqtt: { host: string; port: number; tlsPort: number | null };
  metrics: NetworkMetrics;
  catalogue: SatelliteCatalogue;
  /** Records the satellite a station was tuned to (auto-tune); written with the next batch. */
  recordSatellite(stationId: string, satellite: string): void;
  /** Writes everything queued now. */
  flush(): Promise<void>;
}

declare module '../context' {
  interface Services {
    commands: CommandService;
    network: NetworkService;
  }
}

export interface NetworkPartOptions {
  flushIntervalMs?: number;
  /** how often silent stations are looked for */
  offlineSweepMs?: number;
  /** silence after which a station is offline */
  offlineAfterMs?: number;
  catalogueRefreshMs?: number;
  flood?: FloodLimit;
  /** SQLite: commit batches on a worker thread (default true) */
  writerThread?: boolean;
}

const MERGE_EXPIRY_SWEEP_MS = 5_000;

async function start(ctx: AppContext, options: NetworkPartOptions): Promise<RunningPart> {
  const { config, database, log: rootLog } = ctx;
  const log = rootLog.child({ part: 'network' });
  const db = database.db;
  const metrics = new NetworkMetrics();
  const merge = new MergeIndex();
  // SQLite writes run on a thread of their own (see batch-store.ts).
  let threaded = false;
  const store =
    database.dialect === 'sqlite' &&
    config.database.kind === 'sqlite' &&
    options.writerThread !== false
      ? await sqliteThreadStore(config.database.file, log).then(
          (s) => {
            threaded = true;
            return s;
          },
          (err: unknown) => {
            log.warn({ err }, 'SQLite writer thread not available; writing on the main thread');
            return inProcessStore(db);
          },
        )
      : inProcessStore(db);
  // Checkpoints are the writer's checkpointer thread's job: a main-thread write (welcome, pings,
  // owner actions) must not run one, with its fsyncs, on the event loop.
  if (threaded && database.native.dialect === 'sqlite') {
    database.native.sqlite.pragma('wal_autocheckpoint = 0');
  }
  const writer = new BatchWriter(store, ctx.events, metrics, log, {
    ...DEFAULT_BATCH_WRITER_OPTIONS,
    flushIntervalMs: options.flushIntervalMs ?? DEFAULT_BATCH_WRITER_OPTIONS.flushIntervalMs,
  });
  const registry = new StationRegistry(writer);
  const catalogue = new SatelliteCatalogue(db, log);
  await catalogue.refresh();

  // Nobody is connected to a broker that is just starting.
  await markAllStationsOffline(db);
  await setCounter(db, COUNTERS.stations, 0);
  registry.addKnown(await loadStationIds(db));

  let broker: RunningBroker | null = null;
  const commands = new StationCommands(
    async (topic, payload) => {
      if (!broker) throw new Error('broker not running');
      await broker.publish(topic, payload);
    },
    (id) => registry.isOnline(id),
    log,
  );
  const ingest = new RxIngest(catalogue, merge, writer, metrics);
  const router = new MessageRouter(
    registry,
    ingest,
    commands,
    metrics,
    log,
    (connection) => broker?.disconnect(connection as Parameters<RunningBroker['disconnect']>[0]),
    options.flood ?? DEFAULT_FLOOD_LIMIT,
  );

  writer.start();
  broker = await startBroker({
    port: config.mqtt.port,
    host: config.mqtt.host,
    tls: config.mqtt.tls,
    maxPacketBytes: MQTT_MAX_PACKET_BYTES,
    log,
    async authenticate(username, password) {
      const user = await findUserById(db, username);
      if (!user) return false;
      try {
        return safeEqual(decryptSecret(user.mqttPasswordEnc, config.serverSecret), password);
      } catch (err) {
        log.warn({ err, userId: username }, 'MQTT password of user cannot be decrypted');
        return false;
      }
    },
    onMessage: (topic, payload, client) => router.handle(topic, payload, client),
    onClientGone: (client) => registry.connectionClosed(client),
    onOversize: (client, bytes) => {
      metrics.drop('oversized');
      log.warn(
        { clientId: client?.id, bytes },
        'MQTT packet above the size limit refused; connection closed',
      );
    },
  }).catch(async (err: unknown) => {
    await writer.stop();
    await store.close();
    throw err;
  });

  const timers = [
    setInterval(
      () => registry.sweep(options.offlineAfterMs ?? STATION_OFFLINE_AFTER_MS),
      options.offlineSweepMs ?? 60_000,
    ),
    setInterval(() => merge.expire(Date.now()), MERGE_EXPIRY_SWEEP_MS),
    setInterval(() => {
      catalogue
        .refresh()
        .catch((err: unknown) => log.warn({ err }, 'satellite catalogue refresh failed'));
    }, options.catalogueRefreshMs ?? 60_000),
  ];
  for (const t of timers) t.unref();

  const running = broker;
  ctx.services.commands = commands;
  ctx.services.network = {
    mqtt: { host: config.mqtt.host, port: running.port, tlsPort: running.tlsPort },
    metrics,
    catalogue,
    recordSatellite: (id, satellite) => writer.enqueue({ kind: 'satellite', id, satellite }),
    flush: () => writer.flush(),
  };

  return {
    async stop() {
      for (const t of timers) clearInterval(t);
      delete ctx.services.commands;
      delete ctx.services.network;
      await running.close();
      await writer.stop();
      await store.close();
    },
  };
}

export function createNetworkPart(options: NetworkPartOptions = {}): Part {
  return { name: 'network', start: (ctx) => start(ctx, options) };
}

export const networkPart = createNetworkPart();
