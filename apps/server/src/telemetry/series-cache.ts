// Telemetry answers kept as sent (GET /v1/satellite/{name}/telemetry, JSON): a dashboard asking
// the same window again gets the built and compressed document instead of a new read of thousands
// of samples.
import { perContext } from '../lib/per-context';
import type { FastBody } from '../public-api/http-cache';
import type { TelemetryFieldRow } from '../repositories/telemetry';

/** How long a kept answer may be served without its field changing (retention prunes behind it). */
export const SERIES_CACHE_MS = 60_000;
const SERIES_CACHE_ENTRIES = 32;

/**
 * JSON answers kept per satellite, field and query. Every stored sample adds to its field's sample
 * count and any newer one moves its newest time (telemetry_fields, on every instance sharing the
 * database), so an answer is kept only while both are what they were when it was built, and at
 * most SERIES_CACHE_MS: retention deletes old raw samples and hours without changing either; it
 * clears the cache of its own instance, other instances drop their answers within that time.
 */
export class SeriesCache {
  private readonly entries = new Map<
    string,
    { samples: number; lastAt: number; builtAt: number; body: Promise<FastBody> }
  >();

  constructor(
    private readonly maxAgeMs = SERIES_CACHE_MS,
    private readonly maxEntries = SERIES_CACHE_ENTRIES,
  ) {}

  get(key: string, field: TelemetryFieldRow, build: () => Promise<FastBody>): Promise<FastBody> {
    const kept = this.entries.get(key);
    const now = performance.now();
    if (
      kept &&
      kept.samples === field.samples &&
      kept.lastAt === field.lastAt &&
      now - kept.builtAt < this.maxAgeMs
    )
      return kept.body;
    const body = build();
    const entry = { samples: field.samples, lastAt: field.lastAt, builtAt: now, body };
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
    // A failed build (404, 400) keeps nothing.
    body.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return body;
  }

  /** Drops every kept answer (retention deleted samples or hours). */
  clear(): void {
    this.entries.clear();
  }
}

export const seriesCacheOf = perContext(() => new SeriesCache());
