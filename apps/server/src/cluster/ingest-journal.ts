// The ingest journal of an instance on an external broker with shared state (MQTT_BROKER_URL and
// REDIS_URL): a reception is written to Redis before the broker is told it arrived (PUBACK), and
// deleted once the batch that stored it (or found it stored) committed. An instance that dies
// between the two finds its entries at its next start (same INSTANCE_ID) and ingests them again;
// the broker delivers again what it had not acknowledged. A reception handled twice that way is
// stored once: its frame's claim names the same packet (within the merge window) and the batch
// inserts receptions only if absent (network/ingest/write-batch.ts, shared mode).
//
// The MQTT client hands over the next message only after the previous one was acknowledged, so
// the journal costs each reception one Redis round trip. While Redis is unreachable receptions
// are acknowledged without an entry (as without a journal: lost if the instance dies before its
// next commit).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { SharedState } from './shared-state';

export interface JournalEntry {
  id: string;
  topic: string;
  payload: Buffer;
}

const WARN_EVERY_MS = 60_000;
/** entries read back at a time at start-up */
const REPLAY_PAGE = 1_000;

export class IngestJournal {
  private readonly key: string;
  /** ids of this start; a restarted instance never reuses one */
  private readonly idPrefix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}-`;
  private next = 0;
  private done: string[] = [];
  private flushing = false;
  private warnedAt = -Infinity;

  constructor(
    private readonly shared: SharedState,
    /** the instance's broker client id: stable across its restarts */
    clientId: string,
    private readonly log: Logger,
  ) {
    this.key = `${shared.prefix}journal:${clientId}`;
  }

  /** Writes the entry; its id, or null when Redis could not take it. */
  async write(topic: string, payload: Buffer): Promise<string | null> {
    const id = this.idPrefix + (this.next++).toString(36);
    const value = JSON.stringify([topic, payload.toString('base64')]);
    try {
      await this.shared.redis.hset(this.key, id, value);
      return id;
    } catch (err) {
      this.warn(err);
      return null;
    }
  }

  /** The entries are settled (stored or dropped); deleted with the next round trip. */
  settle(ids: readonly string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.done.push(id);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  /** What a previous start of this instance left: every entry, oldest start first. */
  async *left(): AsyncGenerator<JournalEntry[]> {
    let cursor = '0';
    do {
      const [next, flat] = await this.shared.redis.hscanBuffer(
        this.key,
        cursor,
        'COUNT',
        REPLAY_PAGE,
      );
      cursor = next.toString();
      const page: JournalEntry[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const id = flat[i]?.toString() ?? '';
        if (id.startsWith(this.idPrefix)) continue;
        try {
          const [topic, payload] = JSON.parse(flat[i + 1]?.toString() ?? '') as [string, string];
          page.push({ id, topic, payload: Buffer.from(payload, 'base64') });
        } catch {
          this.settle([id]);
        }
      }
      yield page;
    } while (cursor !== '0');
  }

  /** Deletes what is settled now (also at stop). */
  async flush(): Promise<void> {
    while (this.done.length > 0) {
      const ids = this.done.splice(0, 10_000);
      await this.shared.redis.hdel(this.key, ...ids).catch((err: unknown) => {
        // Left behind: ingested again at the next start, and stored once.
        this.warn(err);
      });
    }
    this.flushing = false;
  }

  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = now;
    this.log.warn(
      { err },
      'ingest journal unavailable (Redis): receptions are acknowledged without an entry',
    );
  }
}
