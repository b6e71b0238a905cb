// Recent frames by hash, so that receptions of the same frame by several stations within the
// merge window join one packet without a read from storage. At thousands of frames a second the
// window holds hundreds of thousands of entries; one big Map would be rehashed (a pause of the
// event loop) as entries come and go, so entries live in time buckets and a whole bucket is
// dropped at once when it leaves the window.
//
// Instances that share ingest also share the claim on a frame (`claim`, Redis in
// shared-merge.ts): the first reception anywhere names the packet, and the others join it. This
// index then stays the first place looked in, so a frame already seen here costs no round trip.
import { PACKET_MERGE_WINDOW_MS, type SatPos } from '@tinygs/contracts';

export interface MergeEntry {
  packetId: string;
  /** server time of the first reception */
  firstAt: number;
  /** station ids that heard it so far */
  stations: string[];
  /** the frame decoded (it counts as a confirmed packet for each station) */
  decoded: boolean;
  satPos: SatPos | null;
}

/** Who names the packet of a frame: this reception (won) or one before it, on any instance. */
export interface MergeClaim {
  packetId: string;
  /** server time of the packet (its first reception) */
  firstAt: number;
  /** the time its orbit facts are computed for (the first station's clock, when trusted) */
  at: number;
  /** this reception claimed the frame: the packet is its own */
  won: boolean;
}

/** The 60-s merge index, in this process only or shared with other instances. */
export interface FrameMerge {
  /** claims go to other instances too (`claim` is asked when this index has no entry) */
  readonly shared: boolean;
  find(hash: string, now: number): MergeEntry | undefined;
  add(hash: string, entry: MergeEntry): void;
  expire(now: number): void;
  /**
   * Claims the frame for `proposal` unless another reception within the window did so first;
   * null when claims are not shared, or the shared store cannot be reached now (the frame then
   * merges within this instance only).
   */
  claim(hash: string, proposal: Omit<MergeClaim, 'won'>): Promise<MergeClaim | null>;
}

interface Bucket {
  startedAt: number;
  entries: Map<string, MergeEntry>;
}

const BUCKET_MS = 5_000;

export class MergeIndex implements FrameMerge {
  readonly shared: boolean = false;
  /** oldest first */
  private buckets: Bucket[] = [];

  constructor(protected readonly windowMs = PACKET_MERGE_WINDOW_MS) {}

  claim(_hash: string, _proposal: Omit<MergeClaim, 'won'>): Promise<MergeClaim | null> {
    return Promise.resolve(null);
  }

  get size(): number {
    return this.buckets.reduce((n, b) => n + b.entries.size, 0);
  }

  /** The packet this frame joins, if one was first heard within the window. */
  find(hash: string, now: number): MergeEntry | undefined {
    for (let i = this.buckets.length - 1; i >= 0; i -= 1) {
      const entry = this.buckets[i]?.entries.get(hash);
      if (entry) return now - entry.firstAt <= this.windowMs ? entry : undefined;
    }
    return undefined;
  }

  add(hash: string, entry: MergeEntry): void {
    let bucket = this.buckets.at(-1);
    if (!bucket || entry.firstAt - bucket.startedAt >= BUCKET_MS) {
      bucket = { startedAt: entry.firstAt, entries: new Map() };
      this.buckets.push(bucket);
    }
    bucket.entries.set(hash, entry);
  }

  /** Drops buckets whose every entry is older than the window. */
  expire(now: number): void {
    while (
      this.buckets.length > 0 &&
      now - ((this.buckets[0]?.startedAt ?? now) + BUCKET_MS) > this.windowMs
    ) {
      this.buckets.shift();
    }
  }
}
