// Recent frames by hash, so that receptions of the same frame by several stations within the
// merge window join one packet without a read from storage. Entries are kept in arrival order,
// which makes expiry a walk from the front.
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

export class MergeIndex {
  private readonly entries = new Map<string, MergeEntry>();

  constructor(private readonly windowMs = PACKET_MERGE_WINDOW_MS) {}

  get size(): number {
    return this.entries.size;
  }

  /** The packet this frame joins, if one was first heard within the window. */
  find(hash: string, now: number): MergeEntry | undefined {
    const entry = this.entries.get(hash);
    if (entry && now - entry.firstAt <= this.windowMs) return entry;
    return undefined;
  }

  add(hash: string, entry: MergeEntry): void {
    // Re-inserting moves the key to the back, keeping the map in time order.
    this.entries.delete(hash);
    this.entries.set(hash, entry);
  }

  /** The packet was not stored after all (its batch was given up). */
  forget(hash: string, packetId: string): void {
    if (this.entries.get(hash)?.packetId === packetId) this.entries.delete(hash);
  }

  expire(now: number): void {
    for (const [hash, entry] of this.entries) {
      if (now - entry.firstAt <= this.windowMs) break;
      this.entries.delete(hash);
    }
  }
}
