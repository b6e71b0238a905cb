// Sends the outbox (repositories/satnogs-outbox.ts) to SatNOGS DB, one frame at a time, the
// longest waiting first. Each frame is claimed before it is sent (a second sender skips it) and
// deleted once SatNOGS DB answered 2xx, so a frame leaves the outbox exactly when it was accepted:
// a restart or an outage resends nothing that was accepted and loses nothing that was not. (A
// crash in the few milliseconds between the 2xx and the delete sends that one frame again.)
//
// Answers: 2xx sent; network error, time-out, 5xx, 429, 401 and 403 are tried again later (401
// and 403 mean the token is wrong: an operator's fix, not a reason to lose frames); any other 4xx
// means SatNOGS DB will never take the frame, which is logged and dropped. While tries fail the
// sender waits between them, doubling up to SATNOGS_DB_MAX_BACKOFF_MS, with jitter; it sends one
// frame per wait, so an outage costs SatNOGS DB one request per back-off.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SatnogsConfig } from '../config';
import type { Database } from '../db/schema';
import {
  claimFrame,
  dropOldestBeyond,
  dueFrames,
  outboxDepth,
  removeFrame,
  retryFrameLater,
  type DueFrame,
} from '../repositories/satnogs-outbox';
import type { ForwardingMetrics } from './metrics';
import { sidsForm } from './sids';

export interface ForwarderTimes {
  /** how often the outbox is looked at while nothing is due */
  idlePollMs: number;
  /** the first wait after a failed try; doubled per failure up to the configured maximum */
  firstBackoffMs: number;
  /** due rows read per round */
  batchSize: number;
}

export const DEFAULT_FORWARDER_TIMES: ForwarderTimes = {
  idlePollMs: 2_000,
  firstBackoffMs: 1_000,
  batchSize: 100,
};

/** A Retry-After further out than this is not believed. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;
/** Response text kept for the log and the row's last_error. */
const ERROR_TEXT_CHARS = 300;

type Outcome =
  | { kind: 'sent' }
  | { kind: 'retry'; error: string; retryAfterMs: number | null }
  | { kind: 'refused'; error: string };

/** Up to `max` characters of a response body, without reading the rest of it. */
async function bodyStart(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < max) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // the text is only for the log
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, max).replace(/\s+/g, ' ').trim();
}

function retryAfterMs(res: Response): number | null {
  const value = res.headers.get('retry-after');
  if (!value) return null;
  const seconds = /^\d{1,7}$/.test(value.trim()) ? Number(value) * 1000 : null;
  const ms = seconds ?? Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : null;
}

export class SatnogsForwarder {
  /** consecutive failed tries: the back-off grows with them */
  private failures = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: SatnogsConfig,
    private readonly metrics: ForwardingMetrics,
    private readonly log: Logger,
    private readonly times: ForwarderTimes = DEFAULT_FORWARDER_TIMES,
    private readonly random: () => number = Math.random,
  ) {}

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let waitMs: number;
      try {
        waitMs = await this.round(signal);
      } catch (err) {
        // Storage unavailable: the outbox is still there when it is back.
        this.log.warn({ err }, 'SatNOGS DB forwarding: outbox not readable; trying again');
        waitMs = this.backoffMs();
      }
      await sleep(waitMs, signal);
    }
  }

  /** One pass over the due rows; returns how long to wait before the next. */
  async round(signal: AbortSignal): Promise<number> {
    await this.bound();
    const rows = await dueFrames(this.db, Date.now(), this.times.batchSize);
    if (rows.length === 0) return this.times.idlePollMs;
    for (const row of rows) {
      if (signal.aborted) return 0;
      // Long enough that the try ends (sent, failed or timed out) before another could take it.
      const claimedUntil = Date.now() + 2 * this.config.timeoutMs + 1_000;
      if (!(await claimFrame(this.db, row, claimedUntil))) continue;
      const form = sidsForm(row);
      if (typeof form === 'string') {
        await removeFrame(this.db, row);
        this.metrics.skipped[form] += 1;
        continue;
      }
      const outcome = await this.send(form, signal);
      if (outcome.kind === 'sent') {
        await removeFrame(this.db, row);
        this.metrics.sent += 1;
        if (this.failures > 0)
          this.log.info({ failedTries: this.failures }, 'SatNOGS DB forwarding: sending again');
        this.failures = 0;
      } else if (outcome.kind === 'refused') {
        await removeFrame(this.db, row);
        this.metrics.refused += 1;
        this.log.warn(
          { packetId: row.packetId, stationId: row.stationId, error: outcome.error },
          'SatNOGS DB refused a frame; it is dropped',
        );
      } else {
        return this.failed(row, outcome);
      }
    }
    // More may be due already.
    return rows.length < this.times.batchSize ? this.times.idlePollMs : 0;
  }

  private async failed(
    row: DueFrame,
    outcome: Extract<Outcome, { kind: 'retry' }>,
  ): Promise<number> {
    this.failures += 1;
    this.metrics.failedTries += 1;
    const waitMs = Math.max(this.backoffMs(), outcome.retryAfterMs ?? 0);
    await retryFrameLater(this.db, row, Date.now() + waitMs, outcome.error);
    // The first failure of a streak is worth a line; the rest are counted.
    if (this.failures === 1)
      this.log.warn(
        { error: outcome.error },
        'SatNOGS DB forwarding failed; frames stay in the outbox and are tried again',
      );
    return waitMs;
  }

  /** Exponential back-off with jitter: between half and all of min(max, first * 2^(n-1)). */
  private backoffMs(): number {
    const exp = Math.min(30, Math.max(0, this.failures - 1));
    const ceiling = Math.min(this.config.maxBackoffMs, this.times.firstBackoffMs * 2 ** exp);
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  /** SATNOGS_OUTBOX_MAX_ROWS: an outage long enough drops the oldest frames, counted. */
  private async bound(): Promise<void> {
    let depth = await outboxDepth(this.db);
    if (depth > this.config.maxOutboxRows) {
      const dropped = await dropOldestBeyond(this.db, this.config.maxOutboxRows);
      depth -= dropped;
      this.metrics.dropped += dropped;
      this.log.warn(
        { dropped, max: this.config.maxOutboxRows },
        'SatNOGS DB outbox full: the oldest frames were dropped',
      );
    }
    this.metrics.depth = depth;
  }

  private async send(form: URLSearchParams, stop: AbortSignal): Promise<Outcome> {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (this.config.token) headers.authorization = `Token ${this.config.token}`;
    let res: Response;
    try {
      res = await fetch(this.config.url, {
        method: 'POST',
        headers,
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.any([stop, AbortSignal.timeout(this.config.timeoutMs)]),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      const name = err instanceof Error ? err.name : 'Error';
      return { kind: 'retry', error: cause ?? name, retryAfterMs: null };
    }
    const text = await bodyStart(res, ERROR_TEXT_CHARS);
    if (res.status >= 200 && res.status < 300) return { kind: 'sent' };
    const error = `HTTP ${res.status}${text ? `: ${text}` : ''}`;
    if (
      res.status >= 500 ||
      res.status === 429 ||
      res.status === 401 ||
      res.status === 403 ||
      res.status === 408
    )
      return { kind: 'retry', error, retryAfterMs: retryAfterMs(res) };
    return { kind: 'refused', error };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}
