// The single writer of the network part. Station lifecycle changes and receptions are queued, and
// every flush interval the queued operations are planned (plan-batch.ts: the rows to write and the
// events to announce) and the plan written in one transaction; events are published only after
// the commit, so everything a client was told about is stored. The store may take the next batch
// while the previous one commits (BatchStore.maxInFlight); batches commit and are announced in the
// order they were sent. A failed batch, with every batch sent after it, goes back to the front of
// the queue in order (order matters: a packet's first reception precedes the ones that join it).
import type { Logger } from 'pino';
import type { EventBus } from '../../events';
import type { NetworkMetrics } from '../metrics';
import type { BatchStore } from './batch-store';
import { planBatch, type BatchPlan, type StoredPacket, type WriteOp } from './plan-batch';
import type { BatchWritten } from './write-batch';

/** What a committed batch stored and announces: its plan with what storage answered. */
interface BatchOutcome {
  newPackets: StoredPacket[];
  /** receptions stored */
  receptions: number;
  /** receptions not stored because their station's copy already was (shared mode) */
  duplicates: number;
  changedStations: Set<string>;
  /** stations whose pings the batch stored, and nothing else of theirs */
  seenStations: string[];
}

function outcomeOf(plan: BatchPlan, written: BatchWritten): BatchOutcome {
  const planned = plan.receptions.shared ? written.receptions : plan.receptions.planned;
  if (!planned) throw new Error('a shared batch was written without its receptions planned');
  // lifecycle first, in the order the batch changed them
  const changedStations = new Set([...written.lifecycleChanged, ...planned.events.changedStations]);
  const seenStations = new Set<string>();
  for (const op of plan.lifecycle)
    if (op.kind === 'seen' && !changedStations.has(op.id)) seenStations.add(op.id);
  return {
    newPackets: planned.events.newPackets,
    receptions: planned.stored,
    duplicates: planned.duplicates,
    changedStations,
    seenStations: [...seenStations],
  };
}

export interface BatchWriterOptions {
  /** how often queued writes are committed */
  flushIntervalMs: number;
  /** operations per transaction */
  maxBatch: number;
  /** receptions beyond this many queued are dropped (storage is down or far too slow) */
  maxQueuedReceptions: number;
  /**
   * Shares of that queue: one station, and all stations of one user, may hold at most this many
   * queued receptions, so a flooding connection fills its own share and nobody else's.
   */
  maxQueuedPerStation: number;
  maxQueuedPerUser: number;
}

export const DEFAULT_BATCH_WRITER_OPTIONS: BatchWriterOptions = {
  flushIntervalMs: 50,
  maxBatch: 5_000,
  maxQueuedReceptions: 200_000,
  maxQueuedPerStation: 5_000,
  maxQueuedPerUser: 20_000,
};

/** Why a reception cannot be queued now. */
export type QueueRefusal = 'queue-full' | 'queue-share';

/**
 * Queued receptions per station or user. A count is changed in place (every reception adds one
 * and its batch takes it back); keys back at zero are forgotten every SWEEP_BATCHES batches, not
 * each time, since the same stations are back in the next batch.
 */
class QueuedCounts {
  private readonly counts = new Map<string, { n: number }>();
  of(key: string): number {
    return this.counts.get(key)?.n ?? 0;
  }
  add(key: string): void {
    const c = this.counts.get(key);
    if (c) c.n += 1;
    else this.counts.set(key, { n: 1 });
  }
  remove(key: string): void {
    const c = this.counts.get(key);
    if (c) c.n -= 1;
  }
  forgetZeros(): void {
    for (const [key, c] of this.counts) if (c.n <= 0) this.counts.delete(key);
  }
}
const SWEEP_BATCHES = 64;

const MAX_RETRY_DELAY_MS = 5_000;

/** Told which journal receipts (ReceptionWrite.receipt) were queued and which committed. */
export interface ReceiptTracker {
  queued(receipt: string): void;
  /** the batch that carried them committed (stored, or found a copy stored) */
  settled(receipts: string[]): void;
}

export class BatchWriter {
  private queue: WriteOp[] = [];
  private queuedReceptions = 0;
  private readonly queuedByStation = new QueuedCounts();
  private readonly queuedByUser = new QueuedCounts();
  private settledBatches = 0;
  private timer: NodeJS.Timeout | null = null;
  /** settles when the last batch sent has been handled (in order: each waits for the previous) */
  private chain: Promise<boolean> = Promise.resolve(true);
  private inFlight = 0;
  /** batches that failed (and the ones sent after them), in order, put back once none is left in flight */
  private failed: WriteOp[][] = [];
  private failures = 0;
  private retryAt = 0;
  /** a tick found the pipeline full: the next batch goes as soon as a slot frees */
  private owed = false;
  private lastSettledAt = 0;
  private stopped = false;
  /** set by the network part when receptions carry journal receipts */
  receipts: ReceiptTracker | null = null;

  constructor(
    private readonly store: BatchStore,
    private readonly events: EventBus,
    private readonly metrics: NetworkMetrics,
    private readonly log: Logger,
    private readonly options: BatchWriterOptions = DEFAULT_BATCH_WRITER_OPTIONS,
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Whether a reception of this station would be queued now (asked before decoding it). */
  roomFor(stationId: string, userId: string): QueueRefusal | null {
    if (this.queuedReceptions >= this.options.maxQueuedReceptions) return 'queue-full';
    if (this.queuedByStation.of(stationId) >= this.options.maxQueuedPerStation)
      return 'queue-share';
    if (this.queuedByUser.of(userId) >= this.options.maxQueuedPerUser) return 'queue-share';
    return null;
  }

  /** Queues one write; a reception over the queue or its share is refused (and not queued). */
  enqueue(op: WriteOp): QueueRefusal | null {
    if (op.kind === 'reception') {
      const { stationId, userId } = op.write.reception;
      const refusal = this.roomFor(stationId, userId);
      if (refusal) return refusal;
      this.queuedReceptions += 1;
      this.queuedByStation.add(stationId);
      this.queuedByUser.add(userId);
      this.metrics.receptionsQueued += 1;
      if (op.write.receipt !== undefined) this.receipts?.queued(op.write.receipt);
    }
    this.queue.push(op);
    return null;
  }

  /** Writes everything queued so far (used at shutdown and by tests). */
  async flush(): Promise<void> {
    for (;;) {
      if (this.inFlight > 0) await this.chain;
      else if (!this.hasWork()) return;
      else if (!(await this.send())) throw new Error('queued network writes could not be stored');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    try {
      await this.flush();
    } catch (err) {
      this.log.error({ err, pending: this.queue.length }, 'queued network writes lost at shutdown');
    }
  }

  private hasWork(): boolean {
    return this.queue.length > 0 || this.metrics.unsavedDropCount > 0;
  }

  // Fixed rate: a batch leaves every interval whatever the previous commit took. With the store's
  // pipeline full the tick is owed and the batch leaves when a commit ends (it then carries what
  // arrived meanwhile, so a slow commit makes the next batch bigger rather than late twice).
  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.flushIntervalMs);
  }

  private tick(): void {
    if (!this.hasWork() || this.failed.length > 0 || performance.now() < this.retryAt) return;
    if (this.inFlight >= this.store.maxInFlight) {
      this.owed = true;
      return;
    }
    void this.send();
  }

  /** Sends one batch; resolves false when it failed (it is queued again, in order). */
  private send(): Promise<boolean> {
    this.owed = false;
    const batch = this.queue.splice(0, this.options.maxBatch);
    const drops = this.metrics.takeUnsavedDrops();
    const sentAt = performance.now();
    let written: Promise<BatchOutcome>;
    try {
      const plan = planBatch(batch, drops, this.store.shared);
      written = this.store.write(plan).then((w) => outcomeOf(plan, w));
    } catch (err) {
      written = Promise.reject(err);
    }
    const write = written.catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
    this.inFlight += 1;
    this.chain = this.chain.then(async () => {
      const outcome = await write;
      this.inFlight -= 1;
      return this.settle(batch, drops, outcome, sentAt);
    });
    return this.chain;
  }

  private settle(
    batch: WriteOp[],
    drops: number,
    outcome: BatchOutcome | Error,
    sentAt: number,
  ): boolean {
    const now = performance.now();
    // time the store spent on this batch: from when it was sent or the previous one was done
    const batchMs = now - Math.max(sentAt, this.lastSettledAt);
    this.lastSettledAt = now;
    if (outcome instanceof Error) {
      if (this.failed.length === 0) {
        this.failures += 1;
        this.metrics.batchFailures += 1;
        this.retryAt =
          now + Math.min(MAX_RETRY_DELAY_MS, this.options.flushIntervalMs * 2 ** this.failures);
        this.log.error(
          { err: outcome, operations: batch.length, attempt: this.failures },
          'network write batch failed; retrying',
        );
      }
      this.metrics.restoreUnsavedDrops(drops);
      this.failed.push(batch);
      if (this.inFlight === 0) {
        this.queue = this.failed.flat().concat(this.queue);
        this.failed = [];
      }
      return false;
    }
    this.failures = 0;
    this.queuedReceptions -= outcome.receptions + outcome.duplicates;
    // A station's copy that another instance had already stored (shared ingest).
    for (let i = 0; i < outcome.duplicates; i += 1) this.metrics.drop('duplicate-reception');
    const receipts: string[] = [];
    for (const op of batch) {
      if (op.kind !== 'reception') continue;
      this.queuedByStation.remove(op.write.reception.stationId);
      this.queuedByUser.remove(op.write.reception.userId);
      if (op.write.receipt !== undefined) receipts.push(op.write.receipt);
    }
    this.settledBatches += 1;
    if (this.settledBatches % SWEEP_BATCHES === 0) {
      this.queuedByStation.forgetZeros();
      this.queuedByUser.forgetZeros();
    }
    if (receipts.length > 0) this.receipts?.settled(receipts);
    this.metrics.receptionsStored += outcome.receptions;
    this.metrics.packetsStored += outcome.newPackets.length;
    this.metrics.batchesWritten += 1;
    this.metrics.lastBatchMs = batchMs;
    this.metrics.maxBatchMs = Math.max(this.metrics.maxBatchMs, batchMs);
    try {
      this.announce(outcome);
    } catch (err) {
      this.log.error({ err }, 'a live-event subscriber failed');
    }
    if (
      !this.stopped &&
      this.hasWork() &&
      (this.owed || this.queue.length >= this.options.maxBatch) &&
      this.inFlight < this.store.maxInFlight
    )
      void this.send();
    return true;
  }

  private announce(outcome: BatchOutcome): void {
    for (const p of outcome.newPackets) {
      // CRC errors are not telemetry, and a packet without a known position cannot be shown.
      if (p.crcError || p.satPos === null) continue;
      this.events.publish('new-packet', {
        satellite: p.satDisplayName,
        satelliteName: p.satelliteName,
        packetId: p.packetId,
        satPos: p.satPos,
        stations: p.stations,
      });
    }
    if (outcome.changedStations.size > 0) {
      this.events.publish('stations-changed', { stationIds: [...outcome.changedStations] });
    }
    if (outcome.seenStations.length > 0)
      this.events.publish('stations-seen', { stationIds: outcome.seenStations });
  }
}
