// Recent frames by hash, so that receptions of the same frame by several stations within the
// merge window join one packet without a read from storage. At thousands of frames a second the
// window holds hundreds of thousands of entries; one big Map would be rehashed (a pause of the
// event loop) as entries come and go, so entries live in time buckets and a whole bucket is
// dropped at once when it leaves the window.
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

interface Bucket {
  startedAt: number;
  entries: Map<string, MergeEntry>;
}

const BUCKET_MS = 5_000;

export class MergeIndex {
  /** oldest first */
  private buckets: Bucket[] = [];

  constructor(private readonly windowMs = PACKET_MERGE_WINDOW_MS) {}

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
