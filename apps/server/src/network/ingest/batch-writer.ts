// The single writer of the network part. Station lifecycle changes and receptions are queued and
// written in one transaction every flush interval; events are published only after the commit, so
// everything a client was told about is stored. A failed batch goes back to the front of the queue
// (order matters: a packet's first reception precedes the ones that join it).
import type { Logger } from 'pino';
import type { EventBus } from '../../events';
import type { NetworkMetrics } from '../metrics';
import type { BatchStore } from './batch-store';
import type { BatchOutcome, WriteOp } from './write-batch';

export interface BatchWriterOptions {
  /** how often queued writes are committed */
  flushIntervalMs: number;
  /** operations per transaction */
  maxBatch: number;
  /** receptions beyond this many queued are dropped (storage is down or far too slow) */
  maxQueuedReceptions: number;
}

export const DEFAULT_BATCH_WRITER_OPTIONS: BatchWriterOptions = {
  flushIntervalMs: 50,
  maxBatch: 5_000,
  maxQueuedReceptions: 200_000,
};

const MAX_RETRY_DELAY_MS = 5_000;

export class BatchWriter {
  private queue: WriteOp[] = [];
  private queuedReceptions = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private failures = 0;
  private stopped = false;

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
    this.schedule(this.options.flushIntervalMs);
  }

  /** False when a reception was refused because the queue is full. */
  enqueue(op: WriteOp): boolean {
    if (op.kind === 'reception') {
      if (this.queuedReceptions >= this.options.maxQueuedReceptions) return false;
      this.queuedReceptions += 1;
      this.metrics.receptionsQueued += 1;
    }
    this.queue.push(op);
    return true;
  }

  /** Writes everything queued so far (used at shutdown and by tests). */
  async flush(): Promise<void> {
    while (this.hasWork() || this.flushing) {
      if (this.flushing) await this.flushing;
      else if (!(await this.flushOnce()))
        throw new Error('queued network writes could not be stored');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
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

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, delayMs);
  }

  private async tick(): Promise<void> {
    const started = performance.now();
    let ok = true;
    if (this.hasWork() && !this.flushing) ok = await this.flushOnce();
    // Fixed rate: the next batch starts one interval after this one started, not after it ended,
    // so a commit taking half the interval does not stretch every reception's wait by half again.
    const elapsed = performance.now() - started;
    const delay = ok
      ? this.queue.length >= this.options.maxBatch
        ? 0
        : Math.max(0, this.options.flushIntervalMs - elapsed)
      : Math.min(MAX_RETRY_DELAY_MS, this.options.flushIntervalMs * 2 ** this.failures);
    this.schedule(delay);
  }

  /** One transaction; false when it failed (the batch is queued again). */
  private async flushOnce(): Promise<boolean> {
    const batch = this.queue.splice(0, this.options.maxBatch);
    const drops = this.metrics.takeUnsavedDrops();
    let outcome: BatchOutcome | null = null;
    let done!: () => void;
    this.flushing = new Promise<void>((resolve) => (done = resolve));
    const started = performance.now();
    try {
      outcome = await this.store.write(batch, drops);
    } catch (err) {
      this.failures += 1;
      this.metrics.batchFailures += 1;
      this.metrics.restoreUnsavedDrops(drops);
      this.queue = batch.concat(this.queue);
      this.log.error(
        { err, operations: batch.length, attempt: this.failures },
        'network write batch failed; retrying',
      );
    } finally {
      this.flushing = null;
      done();
    }
    if (!outcome) return false;
    this.failures = 0;
    this.queuedReceptions -= outcome.receptions;
    this.metrics.receptionsStored += outcome.receptions;
    this.metrics.packetsStored += outcome.newPackets.length;
    this.metrics.batchesWritten += 1;
    this.metrics.lastBatchMs = performance.now() - started;
    this.metrics.maxBatchMs = Math.max(this.metrics.maxBatchMs, this.metrics.lastBatchMs);
    try {
      this.announce(outcome);
    } catch (err) {
      this.log.error({ err }, 'a live-event subscriber failed');
    }
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
  }
}
