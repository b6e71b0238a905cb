// Prometheus metrics of one instance (GET /metrics): ingest rate, queue depth, refused and dropped
// frames by reason, merge hits, live-stream clients, answer-cache hit rate, database time. Each
// instance keeps its own registry (tests start several servers in one process); the counters are
// read from the parts that already count them when Prometheus scrapes, so the hot paths pay
// nothing for it.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { NetworkMetrics } from '../network/metrics';

/** Where the scrape reads its figures; each source is optional (a read-only API test has no broker). */
export interface MetricsSources {
  network(): NetworkMetrics | undefined;
  /** receptions waiting in the ingest queue */
  queueDepth(): number;
}

export interface InstanceMetrics {
  registry: Registry;
  /** one answered HTTP request: route pattern, status class and duration */
  observeRequest(route: string, statusCode: number, seconds: number): void;
  /** one database statement or transaction timed by its caller */
  observeDatabase(operation: string, seconds: number): void;
  /** an answer served from a kept-built document (hit) or rebuilt (miss) */
  countCache(cache: string, hit: boolean): void;
  setSseSource(count: () => number): void;
}

const DURATION_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

function statusClass(code: number): string {
  return `${Math.floor(code / 100)}xx`;
}

export function createInstanceMetrics(
  sources: MetricsSources,
  instanceId: string,
): InstanceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ instance_id: instanceId });
  collectDefaultMetrics({ register: registry, prefix: 'tinygs_process_' });
  let sseSource: () => number = () => 0;

  // Totals that NetworkMetrics keeps as plain numbers are copied in at scrape time: reset, then
  // set to the running total (the registry serialises right after collect, so the zero is never
  // seen, and the totals only grow within a process, as counters must).
  const totals: [string, string, (m: NetworkMetrics) => number][] = [
    [
      'tinygs_mqtt_messages_received_total',
      'MQTT messages that reached the router',
      (m) => m.messagesReceived,
    ],
    [
      'tinygs_receptions_queued_total',
      'receptions accepted into the ingest queue',
      (m) => m.receptionsQueued,
    ],
    [
      'tinygs_receptions_stored_total',
      'receptions committed to storage',
      (m) => m.receptionsStored,
    ],
    ['tinygs_packets_stored_total', 'packets committed to storage', (m) => m.packetsStored],
    ['tinygs_ingest_batches_total', 'ingest batches committed', (m) => m.batchesWritten],
    [
      'tinygs_ingest_batch_failures_total',
      'ingest batches that failed and were retried',
      (m) => m.batchFailures,
    ],
    [
      'tinygs_merge_hits_total',
      'receptions that joined a packet another station heard first',
      (m) => m.mergeHits,
    ],
    [
      'tinygs_merge_fallbacks_total',
      'frames merged within this instance only because Redis was unavailable',
      (m) => m.mergeFallbacks,
    ],
  ];
  for (const [name, help, read] of totals) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const m = sources.network();
        this.reset();
        if (m) this.inc(read(m));
      },
    });
  }
  const byReason: [string, string, (m: NetworkMetrics) => Record<string, number>][] = [
    [
      'tinygs_frames_dropped_total',
      'MQTT messages dropped after the broker accepted them, by reason',
      (m) => m.dropped,
    ],
    [
      'tinygs_broker_refusals_total',
      'what the broker refused (connections, topics, flags), by reason',
      (m) => m.refused,
    ],
  ];
  for (const [name, help, read] of byReason) {
    new Counter({
      name,
      help,
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        const m = sources.network();
        this.reset();
        if (!m) return;
        for (const [reason, n] of Object.entries(read(m))) this.inc({ reason }, n);
      },
    });
  }
  new Counter({
    name: 'tinygs_frames_unverified_total',
    help: 'frames stored as unverified (they failed their format’s checks), by satellite and check',
    labelNames: ['satellite', 'reason'],
    registers: [registry],
    collect() {
      const m = sources.network();
      this.reset();
      if (!m) return;
      for (const [key, n] of m.unverified) {
        const [satellite = '', reason = ''] = key.split('\n');
        this.inc({ satellite, reason }, n);
      }
    },
  });
  new Gauge({
    name: 'tinygs_ingest_queue_depth',
    help: 'receptions waiting to be written',
    registers: [registry],
    collect() {
      this.set(sources.queueDepth());
    },
  });
  new Gauge({
    name: 'tinygs_ingest_last_batch_seconds',
    help: 'commit time of the last ingest batch',
    registers: [registry],
    collect() {
      this.set((sources.network()?.lastBatchMs ?? 0) / 1000);
    },
  });
  new Gauge({
    name: 'tinygs_sse_clients',
    help: 'browsers connected to the live event stream of this instance',
    registers: [registry],
    collect() {
      this.set(sseSource());
    },
  });
  const requests = new Histogram({
    name: 'tinygs_http_request_duration_seconds',
    help: 'HTTP answers by route pattern and status class',
    labelNames: ['route', 'status'],
    buckets: DURATION_BUCKETS_S,
    registers: [registry],
  });
  const database = new Histogram({
    name: 'tinygs_database_seconds',
    help: 'time spent in database statements and transactions, by operation',
    labelNames: ['operation'],
    buckets: DURATION_BUCKETS_S,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'tinygs_answer_cache_total',
    help: 'kept-built API answers served (hit) or rebuilt (miss)',
    labelNames: ['cache', 'result'],
    registers: [registry],
  });

  return {
    registry,
    observeRequest(route, statusCode, seconds) {
      requests.observe({ route, status: statusClass(statusCode) }, seconds);
    },
    observeDatabase(operation, seconds) {
      database.observe({ operation }, seconds);
    },
    countCache(name, hit) {
      cache.inc({ cache: name, result: hit ? 'hit' : 'miss' });
    },
    setSseSource(count) {
      sseSource = count;
    },
  };
}
