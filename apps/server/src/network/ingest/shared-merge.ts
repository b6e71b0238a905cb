// The merge index shared by the instances (REDIS_URL). Instances split the stations' messages
// between them, so the copies of one frame heard by several stations may arrive at different
// instances. A Redis key per frame hash, set if absent for the merge window, names the packet:
// the reception that sets it (SET NX) creates the packet, the others read the packet id (and the
// times its facts are computed for) from the same command (GET) and join it.
//
// The key is set before the winner's packet is stored, and the winner may be slow or may die
// before its batch commits. So every reception that went through a claim carries the whole
// packet row, built from the claim (same id, server time and orbit time, the same frame: the
// same row), and the batch stores it if absent (write-batch.ts, shared mode): whichever batch
// commits first creates the packet, the others only add their receptions, and the counters move
// by what was actually inserted. No interleaving of claims and commits makes two packets of one
// frame or loses a reception.
import type { Logger } from 'pino';
import type { SharedState } from '../../cluster/shared-state';
import type { NetworkMetrics } from '../metrics';
import { MergeIndex, type MergeClaim } from './merge-index';

const WARN_EVERY_MS = 60_000;

function parseClaim(value: unknown): Omit<MergeClaim, 'won'> | null {
  if (typeof value !== 'string' || value.length > 200) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const [packetId, firstAt, at] = parsed as unknown[];
    if (typeof packetId !== 'string' || !/^[0-9a-f]{24}$/.test(packetId)) return null;
    if (typeof firstAt !== 'number' || typeof at !== 'number') return null;
    if (!Number.isFinite(firstAt) || !Number.isFinite(at)) return null;
    return { packetId, firstAt, at };
  } catch {
    return null;
  }
}

export class SharedMergeIndex extends MergeIndex {
  override readonly shared = true;
  private warnedAt = -Infinity;

  constructor(
    private readonly state: SharedState,
    private readonly metrics: NetworkMetrics,
    private readonly log: Logger,
    windowMs?: number,
  ) {
    super(windowMs);
  }

  override async claim(
    hash: string,
    proposal: Omit<MergeClaim, 'won'>,
  ): Promise<MergeClaim | null> {
    const key = `${this.state.prefix}merge:${hash}`;
    const value = JSON.stringify([proposal.packetId, proposal.firstAt, proposal.at]);
    let previous: unknown;
    try {
      previous = await this.state.redis.call(
        'SET',
        key,
        value,
        'PX',
        String(this.windowMs),
        'NX',
        'GET',
      );
    } catch (err) {
      this.fallback(err);
      return null;
    }
    if (previous === null) return { ...proposal, won: true };
    const claimed = parseClaim(previous);
    if (!claimed) {
      this.fallback(new Error(`unreadable merge claim under ${key}`));
      return null;
    }
    return { ...claimed, won: false };
  }

  private fallback(err: unknown): void {
    this.metrics.mergeFallbacks += 1;
    const now = Date.now();
    if (now - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = now;
    this.log.warn(
      { err, fallbacks: this.metrics.mergeFallbacks },
      'merge claim not shared (Redis unavailable): the frame merges within this instance only',
    );
  }
}
