// In-process metrics of the station network: what arrived, what was stored, what was dropped and
// why, and what the broker refused (connections, topics, flags). Dropped messages are also added
// to the `droppedMessages` counter by the batch writer.
import { SATELLITE_FORMATS, type CheckKind } from '@tinygs/decoders';

export const DROP_REASONS = [
  'not-json',
  'invalid-payload',
  'oversized',
  'unknown-satellite',
  'unknown-station',
  'bad-topic',
  'duplicate-reception',
  'queue-full',
  /** the station (or its owner) already holds its share of the ingest queue */
  'queue-share',
  /** above the connection's token bucket for that topic */
  'rate-limited',
  /** a welcome for a new station of a user who has reached the station cap */
  'station-cap',
  /** station_location outside -90..90 / -180..180 */
  'bad-location',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** What the broker refused before a message reached the router (connections, ACL, flags). */
export const REFUSAL_REASONS = [
  'bad-credentials',
  'client-id-taken',
  'client-id-too-long',
  'connections-per-user',
  'connections-per-address',
  'connections-total',
  'publish-not-allowed',
  'subscribe-not-allowed',
  'subscriptions-per-connection',
  /** a retained publish: delivered, never stored */
  'retain-flag-cleared',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export class NetworkMetrics {
  messagesReceived = 0;
  receptionsQueued = 0;
  receptionsStored = 0;
  packetsStored = 0;
  batchesWritten = 0;
  batchFailures = 0;
  floodDisconnects = 0;
  /** receptions that joined a packet first heard by another station */
  mergeHits = 0;
  /** frames merged within this instance only because the shared merge claims were unavailable */
  mergeFallbacks = 0;
  lastBatchMs = 0;
  /** slowest batch commit so far, ms */
  maxBatchMs = 0;
  readonly dropped: Record<DropReason, number> = Object.fromEntries(
    DROP_REASONS.map((r) => [r, 0]),
  ) as Record<DropReason, number>;
  readonly refused: Record<RefusalReason, number> = Object.fromEntries(
    REFUSAL_REASONS.map((r) => [r, 0]),
  ) as Record<RefusalReason, number>;
  /**
   * Frames stored as unverified (they failed their format's checks), by `satellite\nreason`. The
   * satellite is one of the real satellites with checks, any other is `other`: a bounded label.
   */
  readonly unverified = new Map<string, number>();
  /** drops not yet added to the persistent counter */
  private unsavedDrops = 0;

  drop(reason: DropReason): void {
    this.dropped[reason] += 1;
    this.unsavedDrops += 1;
  }

  countUnverified(satellite: string, reason: CheckKind): void {
    const label = Object.hasOwn(SATELLITE_FORMATS, satellite) ? satellite : 'other';
    const key = `${label}\n${reason}`;
    this.unverified.set(key, (this.unverified.get(key) ?? 0) + 1);
  }

  refuse(reason: RefusalReason): void {
    this.refused[reason] += 1;
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
      mergeHits: this.mergeHits,
      mergeFallbacks: this.mergeFallbacks,
      lastBatchMs: this.lastBatchMs,
      maxBatchMs: this.maxBatchMs,
      dropped: { ...this.dropped },
      refused: { ...this.refused },
    };
  }
}
