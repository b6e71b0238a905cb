// In-process metrics of the station network: what arrived, what was stored, what was dropped and
// why. Dropped messages are also added to the `droppedMessages` counter by the batch writer.
export const DROP_REASONS = [
  'not-json',
  'invalid-payload',
  'oversized',
  'unknown-satellite',
  'unknown-station',
  'bad-topic',
  'duplicate-reception',
  'queue-full',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export class NetworkMetrics {
  messagesReceived = 0;
  receptionsQueued = 0;
  receptionsStored = 0;
  packetsStored = 0;
  batchesWritten = 0;
  batchFailures = 0;
  floodDisconnects = 0;
  lastBatchMs = 0;
  /** slowest batch commit so far, ms */
  maxBatchMs = 0;
  readonly dropped: Record<DropReason, number> = Object.fromEntries(
    DROP_REASONS.map((r) => [r, 0]),
  ) as Record<DropReason, number>;
  /** drops not yet added to the persistent counter */
  private unsavedDrops = 0;

  drop(reason: DropReason): void {
    this.dropped[reason] += 1;
    this.unsavedDrops += 1;
  }

  get unsavedDropCount(): number {
    return this.unsavedDrops;
  }

  /** Hands the drops since the last call to the writer, which persists them. */
  takeUnsavedDrops(): number {
    const n = this.unsavedDrops;
    this.unsavedDrops = 0;
    return n;
  }

  /** Gives drops back when the batch that carried them failed. */
  restoreUnsavedDrops(n: number): void {
    this.unsavedDrops += n;
  }

  snapshot() {
    return {
      messagesReceived: this.messagesReceived,
      receptionsQueued: this.receptionsQueued,
      receptionsStored: this.receptionsStored,
      packetsStored: this.packetsStored,
      batchesWritten: this.batchesWritten,
      batchFailures: this.batchFailures,
      floodDisconnects: this.floodDisconnects,
      lastBatchMs: this.lastBatchMs,
      maxBatchMs: this.maxBatchMs,
      dropped: { ...this.dropped },
    };
  }
}
