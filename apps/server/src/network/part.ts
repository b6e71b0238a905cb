// The station network part: broker, station lifecycle, ingest and the command service, wired
// together and started with the server. Intervals are options so tests need not wait minutes.
import { MQTT_MAX_PACKET_BYTES, STATION_OFFLINE_AFTER_MS, TELE_TOPICS } from '@tinygs/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import { setWalAutoCheckpoint } from '../db/sqlite-wal';
import type { Part, RunningPart } from '../part';
import { COUNTERS, setCounter } from '../repositories/counters';
import { recordRestartOffline } from '../repositories/station-health';
import {
  loadSilentStationIds,
  loadStationIds,
  loadStationIdsOfUser,
  loadStationState,
  loadStationStates,
  markAllStationsOffline,
} from '../repositories/stations';
import { startBroker, type RunningBroker } from './broker';
import type { BrokerAccounts } from './broker-accounts';
import { brokerIdentity } from './broker-credentials';
import { connectBrokerAccounts, reconcileBrokerAccounts } from './broker-accounts-sync';
import { connectExternalBroker, type ExternalBroker } from './external-broker';
import { StationCommands, type CommandService } from './commands';
import {
  BatchWriter,
  DEFAULT_BATCH_WRITER_OPTIONS,
  type BatchWriterOptions,
} from './ingest/batch-writer';
import { inProcessStore, type BatchStore } from './ingest/batch-store';
import { postgresThreadStore } from './ingest/postgres/thread-store';
import { sqliteThreadStore } from './ingest/sqlite/thread-store';
import { SatelliteCatalogue } from './ingest/catalogue';
import { MergeIndex } from './ingest/merge-index';
import { RxIngest } from './ingest/rx-ingest';
import { SharedMergeIndex } from './ingest/shared-merge';
import { IngestJournal } from '../cluster/ingest-journal';
import {
  DEFAULT_FLOOD_LIMIT,
  MessageRouter,
  stationRates,
  type FloodLimit,
  type StationRates,
} from './message-router';
import { NetworkMetrics } from './metrics';
import { StationRegistry } from './station-registry';

export interface NetworkService {
  /** where stations dial: the embedded broker's listener or the external broker */
  mqtt: { host: string; port: number; tlsPort: number | null };
  /** station credentials live in an external broker's dynamic-security plugin */
  brokerAccounts: BrokerAccounts | null;
  metrics: NetworkMetrics;
  /** receptions waiting to be written */
  queueDepth(): number;
  catalogue: SatelliteCatalogue;
  /** Records the satellite a station was tuned to (auto-tune); written with the next batch. */
  recordSatellite(stationId: string, satellite: string): void;
  /** Writes everything queued now. */
  flush(): Promise<void>;
  /**
   * The user's account-wide MQTT password changed: its connections that logged in with the old
   * one are closed (station-bound ones stay) and logins checked against the old one are refused.
   * How many connections were closed (external broker: unknown, 0). `password` is the new one.
   */
  accountPasswordChanged(userId: string, password: string): Promise<number>;
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
  /** per-connection rates; default from MQTT_RX_PER_SECOND */
  rates?: StationRates;
  /** ingest queue sizes and shares (tests shrink them) */
  queue?: Partial<Omit<BatchWriterOptions, 'flushIntervalMs'>>;
  /** commit batches on a worker thread with a connection of its own (default true) */
  writerThread?: boolean;
  /** external broker: how often storage is read for stations other instances saw */
  storedStateRefreshMs?: number;
  /** external broker: how often the accounts are reconciled with the dynamic-security plugin */
  reconcileMs?: number;
}

const MERGE_EXPIRY_SWEEP_MS = 5_000;
// The firmware holds two subscriptions (PROTOCOL.md); a few more leave room for other clients.
const SUBSCRIPTIONS_PER_CONNECTION = 16;

async function start(ctx: AppContext, options: NetworkPartOptions): Promise<RunningPart> {
  const { config, database, log: rootLog } = ctx;
  const log = rootLog.child({ part: 'network' });
  const db = database.db;
  const metrics = new NetworkMetrics();
  // Instances sharing state in Redis share the merge claims too (shared-merge.ts).
  const shared = ctx.services.shared;
  const merge = shared ? new SharedMergeIndex(shared, metrics, log) : new MergeIndex();
  // Batches are committed on a thread of their own (see ingest/thread-store.ts).
  const sharedIngest = shared !== undefined;
  let threaded = false;
  let store: BatchStore = inProcessStore(db, sharedIngest);
  const dbConfig = config.database;
  const thread =
    options.writerThread === false
      ? null
      : dbConfig.kind === 'sqlite' && database.dialect === 'sqlite'
        ? () => sqliteThreadStore(dbConfig.file, log)
        : dbConfig.kind === 'postgres' && database.dialect === 'postgres'
          ? () => postgresThreadStore(dbConfig, sharedIngest, log)
          : null;
  if (thread) {
    try {
      store = await thread();
      threaded = true;
    } catch (err) {
      log.warn({ err }, 'writer thread not available; writing on the main thread');
    }
  }
  // Checkpoints are the writer's checkpointer thread's job: a main-thread write (welcome, pings,
  // owner actions) must not run one, with its fsyncs, on the event loop.
  if (threaded && database.native.dialect === 'sqlite')
    setWalAutoCheckpoint(database.native.sqlite, 0);
  const writer = new BatchWriter(store, ctx.events, metrics, log, {
    ...DEFAULT_BATCH_WRITER_OPTIONS,
    ...options.queue,
    flushIntervalMs: options.flushIntervalMs ?? DEFAULT_BATCH_WRITER_OPTIONS.flushIntervalMs,
  });
  const limits = config.mqttLimits;
  const external = config.mqtt.external;
  const registry = new StationRegistry(
    writer,
    { perUser: limits.stationsPerUser, loadOwned: (userId) => loadStationIdsOfUser(db, userId) },
    Date.now,
    external !== null,
    external ? { find: (id) => loadStationState(db, id) } : null,
  );
  const catalogue = new SatelliteCatalogue(db, log, config.satnogs !== null);
  await catalogue.refresh();

  if (external) {
    // Other instances and the broker keep running: storage says who is online.
    registry.syncStored(await loadStationStates(db));
  } else {
    // Nobody is connected to a broker that is just starting.
    await recordRestartOffline(db, Date.now());
    await markAllStationsOffline(db);
    await setCounter(db, COUNTERS.stations, 0);
    registry.addKnown(await loadStationIds(db));
  }

  let publish: ((topic: string, payload: Buffer) => Promise<void>) | null = null;
  const commands = new StationCommands(
    async (topic, payload) => {
      if (!publish) throw new Error('broker not running');
      await publish(topic, payload);
    },
    (id) => registry.isOnline(id),
    log,
  );
  const ingest = new RxIngest(catalogue, merge, writer, metrics);
  let disconnect: (connection: object) => void = () => undefined;
  const router = new MessageRouter(
    registry,
    ingest,
    commands,
    metrics,
    log,
    (connection) => disconnect(connection),
    options.flood ?? DEFAULT_FLOOD_LIMIT,
    options.rates ?? stationRates(limits.rxPerSecond),
  );

  writer.start();
  const offlineAfterMs = options.offlineAfterMs ?? STATION_OFFLINE_AFTER_MS;
  const sweepMs = options.offlineSweepMs ?? 60_000;
  const timers = [
    setInterval(() => merge.expire(Date.now()), MERGE_EXPIRY_SWEEP_MS),
    setInterval(() => {
      catalogue
        .refresh()
        .catch((err: unknown) => log.warn({ err }, 'satellite catalogue refresh failed'));
    }, options.catalogueRefreshMs ?? 60_000),
  ];
  const stopTimers = () => {
    for (const t of timers) clearInterval(t);
  };

  let link: StationLink;
  try {
    const parts: LinkParts = { router, registry, writer, offlineAfterMs, sweepMs, timers };
    link = external
      ? await externalLink(ctx, options, parts)
      : await embeddedLink(ctx, { ...parts, metrics });
  } catch (err) {
    stopTimers();
    await writer.stop();
    await store.close();
    throw err;
  }
  for (const t of timers) t.unref();
  publish = link.publish;
  disconnect = link.disconnect;

  const network: NetworkService = {
    mqtt: link.mqtt,
    brokerAccounts: link.accounts,
    metrics,
    queueDepth: () => writer.pending,
    catalogue,
    recordSatellite: (id, satellite) => writer.enqueue({ kind: 'satellite', id, satellite }),
    flush: () => writer.flush(),
    accountPasswordChanged: (userId, password) => link.accountPasswordChanged(userId, password),
  };

  return {
    services: { commands, network },
    async stop() {
      stopTimers();
      await link.close();
      await writer.stop();
      await link.afterWriter?.();
      await store.close();
    },
  };
}

/** How stations reach this instance: the embedded broker or an external one. */
interface StationLink {
  mqtt: NetworkService['mqtt'];
  accounts: BrokerAccounts | null;
  publish(topic: string, payload: Buffer): Promise<void>;
  /** closes what a flooding station speaks through */
  disconnect(connection: object): void;
  accountPasswordChanged(userId: string, password: string): Promise<number>;
  close(): Promise<void>;
  /** after the writer stopped */
  afterWriter?(): Promise<void>;
}

interface LinkParts {
  router: MessageRouter;
  writer: BatchWriter;
  registry: StationRegistry;
  offlineAfterMs: number;
  sweepMs: number;
  timers: NodeJS.Timeout[];
}

async function embeddedLink(
  ctx: AppContext,
  {
    router,
    registry,
    metrics,
    offlineAfterMs,
    sweepMs,
    timers,
  }: LinkParts & { metrics: NetworkMetrics },
): Promise<StationLink> {
  const { config, log: rootLog } = ctx;
  const log = rootLog.child({ part: 'network' });
  const db = ctx.database.db;
  const limits = config.mqttLimits;
  const passwordGenerations = new Map<string, number>();
  const broker: RunningBroker = await startBroker({
    port: config.mqtt.port,
    host: config.mqtt.host,
    tls: config.mqtt.tls,
    maxPacketBytes: MQTT_MAX_PACKET_BYTES,
    limits: {
      perUser: limits.connectionsPerUser,
      perAddress: limits.connectionsPerAddress,
      total: limits.connections,
      subscriptionsPerConnection: SUBSCRIPTIONS_PER_CONNECTION,
    },
    metrics,
    log,
    async authenticate(username, password) {
      const generation = passwordGenerations.get(username) ?? 0;
      const who = await brokerIdentity(
        db,
        config.serverSecret,
        log,
        limits.stationsPerUser * 2 + 20,
        username,
        password,
      );
      // The password changed while it was being checked: the answer may be about the old one.
      if (who?.station === null && (passwordGenerations.get(username) ?? 0) !== generation)
        return null;
      return who;
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
  });
  timers.push(setInterval(() => registry.sweep(offlineAfterMs), sweepMs));
  return {
    mqtt: { host: config.mqtt.host, port: broker.port, tlsPort: broker.tlsPort },
    accounts: null,
    publish: (topic, payload) => broker.publish(topic, payload),
    disconnect: (connection) =>
      broker.disconnect(connection as Parameters<RunningBroker['disconnect']>[0]),
    accountPasswordChanged(userId) {
      passwordGenerations.set(userId, (passwordGenerations.get(userId) ?? 0) + 1);
      return Promise.resolve(broker.disconnectUser(userId, (who) => who.station === null));
    },
    close: () => broker.close(),
  };
}

/**
 * One object per station for the router's token buckets and flood count: with an external broker
 * the server sees no connections, only topics. Bounded; emptied when full.
 */
class StationKeys {
  private readonly keys = new Map<string, { userId: string }>();
  of(topic: string): object {
    const [, userId = '', station = ''] = topic.split('/', 3);
    const name = `${userId}/${station}`;
    let key = this.keys.get(name);
    if (!key) {
      if (this.keys.size >= MAX_STATION_KEYS) this.keys.clear();
      key = { userId };
      this.keys.set(name, key);
    }
    return key;
  }
}

const MAX_STATION_KEYS = 200_000;

async function externalLink(
  ctx: AppContext,
  options: NetworkPartOptions,
  { router, registry, writer, offlineAfterMs, sweepMs, timers }: LinkParts,
): Promise<StationLink> {
  const { config, log: rootLog } = ctx;
  const broker = config.mqtt.external;
  if (!broker) throw new Error('no external broker configured');
  const log = rootLog.child({ part: 'network' });
  const db = ctx.database.db;
  const { dynsec, accounts, serverPassword } = await connectBrokerAccounts(ctx, broker, log);
  let ingest: ExternalBroker;
  const keys = new StationKeys();
  // With shared state, receptions are journaled before the broker is told they arrived.
  const journal = ctx.services.shared
    ? new IngestJournal(ctx.services.shared, broker.clientId, log)
    : null;
  let onMessage = (topic: string, payload: Buffer) => router.handle(topic, payload, keys.of(topic));
  try {
    await reconcileBrokerAccounts(ctx, accounts);
    if (journal) onMessage = await journaled(journal, router, writer, keys, log);
    ingest = await connectExternalBroker({
      broker,
      password: serverPassword,
      log,
      onMessage: (topic, payload) => onMessage(topic, payload),
    });
  } catch (err) {
    await dynsec.close();
    throw err;
  }
  const sweep = async () => {
    const before = Date.now() - offlineAfterMs;
    registry.storedSilent(await loadSilentStationIds(db, before), before);
  };
  const refresh = async () => registry.syncStored(await loadStationStates(db));
  const every = (ms: number, job: () => Promise<unknown>, what: string) =>
    timers.push(
      setInterval(() => {
        job().catch((err: unknown) => log.warn({ err }, `${what} failed`));
      }, ms),
    );
  every(sweepMs, sweep, 'offline sweep');
  every(options.storedStateRefreshMs ?? 10_000, refresh, 'station state refresh');
  // A station another instance just stored (its event crossed over with REDIS_URL): read storage
  // now rather than at the next refresh, at most once a second.
  // An event that arrives while a refresh runs (or waits out its second) is not lost: one more
  // refresh follows.
  let refreshing: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const refreshSoon = (): void => {
    if (stopped) return;
    if (refreshing) {
      again = true;
      return;
    }
    again = false;
    refreshing = refresh()
      .catch((err: unknown) => log.warn({ err }, 'station state refresh failed'))
      .then(() => new Promise<void>((r) => setTimeout(r, 1_000).unref()))
      .finally(() => {
        refreshing = null;
        if (again) refreshSoon();
      });
  };
  const unsubscribe = ctx.events.subscribe('stations-changed', ({ stationIds }) => {
    if (!stationIds.every((id) => registry.isKnown(id))) refreshSoon();
  });
  every(
    options.reconcileMs ?? 10 * 60_000,
    () => reconcileBrokerAccounts(ctx, accounts),
    'broker account reconciliation',
  );
  return {
    mqtt: { host: broker.host, port: broker.port, tlsPort: null },
    accounts,
    publish: (topic, payload) => ingest.publish(topic, payload),
    disconnect(connection) {
      // The broker holds the connections; closing the account's ones is what the server can do.
      const userId = (connection as { userId?: string }).userId;
      if (userId)
        accounts.kick(userId).catch((err: unknown) => log.warn({ err, userId }, 'kick failed'));
    },
    async accountPasswordChanged(userId, password) {
      await accounts.changePassword(userId, password);
      return 0;
    },
    async close() {
      stopped = true;
      unsubscribe();
      await ingest.close();
      await dynsec.close();
    },
    // After the writer's last batch: the entries it settled are deleted.
    afterWriter: async () => journal?.flush(),
  };
}

const isRxTopic = (topic: string) => topic.endsWith(`/tele/${TELE_TOPICS.rx}`);

/**
 * The journaled message handler (cluster/ingest-journal.ts): a `tele/rx` is written to the
 * journal, then handled; its entry is deleted when the reception it became committed, or at
 * once when it was dropped. First, what a previous start of this instance left is ingested again.
 */
async function journaled(
  journal: IngestJournal,
  router: MessageRouter,
  writer: BatchWriter,
  keys: StationKeys,
  log: Logger,
): Promise<(topic: string, payload: Buffer) => void | Promise<void>> {
  const held = new Set<string>();
  writer.receipts = {
    queued: (receipt) => held.add(receipt),
    settled(receipts) {
      for (const r of receipts) held.delete(r);
      journal.settle(receipts);
    },
  };
  const handle = async (topic: string, payload: Buffer, receipt: string) => {
    await router.handle(topic, payload, keys.of(topic), receipt);
    if (!held.has(receipt)) journal.settle([receipt]);
  };
  let replayed = 0;
  for await (const page of journal.left()) {
    for (const entry of page) await handle(entry.topic, entry.payload, entry.id);
    replayed += page.length;
    // Page by page through the queue, so replaying never overflows it.
    await writer.flush();
  }
  if (replayed > 0) log.info({ replayed }, 'receptions left in the ingest journal ingested again');
  return async (topic, payload) => {
    if (!isRxTopic(topic)) return router.handle(topic, payload, keys.of(topic));
    const receipt = await journal.write(topic, payload);
    if (receipt === null) return router.handle(topic, payload, keys.of(topic));
    await handle(topic, payload, receipt);
  };
}

export function createNetworkPart(options: NetworkPartOptions = {}): Part {
  return { name: 'network', start: (ctx) => start(ctx, options) };
}

export const networkPart = createNetworkPart();
