// One element-set refresh (docs/OPERATIONS.md, "Element sets"): asks every configured source
// (conditionally), validates each set found for a catalogue satellite, keeps the newest valid one
// per satellite and stores it over an older one. A failed source, a malformed document or a set
// that fails a check changes nothing: the satellite keeps the last good set it had.
import { createHash } from 'node:crypto';
import type { AppContext } from '../context';
import {
  listHeldSets,
  readSourceStates,
  saveSourceState,
  type HeldSet,
  type SourceState,
} from '../repositories/element-sets';
import {
  applyElementSets,
  groupByNorad,
  Rejections,
  type FoundSet,
  type Rejection,
  type UpdatedSet,
} from './apply';
import {
  isHttpSource,
  readSource,
  sourceLabel,
  SourceError,
  type Validators,
} from './fetch-source';
import { DocumentFormatError, readElementDocument } from './formats';

/** In a source URL, replaced by each catalogue satellite's NORAD id (one request per satellite). */
export const NORAD_PLACEHOLDER = '{NORAD}';
/** Retired satellites are not asked for one by one. */
const RETIRED = new Set(['Inactive', 'BInactive']);
/** Requests in flight at once when a source is asked per satellite. */
const CONCURRENCY = 4;

export interface RefreshOptions {
  /** accept sets older than the held ones, and ask unconditionally */
  force?: boolean;
  signal?: AbortSignal;
  now?: number;
}

export interface SourceReport {
  source: string;
  requests: number;
  fetched: number;
  notModified: number;
  failed: number;
  /** element sets the answers held (for any satellite) */
  sets: number;
  /** the first few failures, as logged */
  errors: string[];
}

export interface RefreshReport {
  sources: SourceReport[];
  updated: UpdatedSet[];
  /** satellites whose held set is the newest any source had */
  unchanged: number;
  rejected: Rejection[];
  rejectedTotal: number;
  /** false when every request failed */
  ok: boolean;
}

type RefreshContext = Pick<AppContext, 'config' | 'database' | 'log' | 'services'>;

interface Request {
  source: string;
  url: string;
  /** what the stored validators are valid for: the asked satellite, or the whole catalogue */
  key: string;
  /** set for per-satellite requests: answers about another satellite are refused */
  norad: number | null;
}

function requestsFor(sources: readonly string[], held: readonly HeldSet[]): Request[] {
  const norads = [...new Set(held.map((h) => h.norad))].sort((a, b) => a - b);
  const catalogueKey = createHash('sha256').update(norads.join(',')).digest('base64url');
  const asked = [...new Set(held.filter((h) => !RETIRED.has(h.status)).map((h) => h.norad))].sort(
    (a, b) => a - b,
  );
  return sources.flatMap((source): Request[] =>
    source.includes(NORAD_PLACEHOLDER)
      ? asked.map((norad) => ({
          source,
          url: source.replaceAll(NORAD_PLACEHOLDER, String(norad)),
          key: `norad:${norad}`,
          norad,
        }))
      : [{ source, url: source, key: catalogueKey, norad: null }],
  );
}

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(run));
  }
}

export async function refreshElementSets(
  ctx: RefreshContext,
  options: RefreshOptions = {},
): Promise<RefreshReport> {
  const { db } = ctx.database;
  const { sources, fetchTimeoutMs, maxBytes } = ctx.config.elementSets;
  const force = options.force === true;
  const now = options.now ?? Date.now();
  const held = await listHeldSets(db);
  const heldByNorad = groupByNorad(held);
  const requests = requestsFor(sources, held);
  const states = await readSourceStates(
    db,
    requests.map((r) => r.url),
  );
  const reports = new Map<string, SourceReport>(
    sources.map((source) => [
      source,
      { source, requests: 0, fetched: 0, notModified: 0, failed: 0, sets: 0, errors: [] },
    ]),
  );
  const rejections = new Rejections(heldByNorad);
  const found: FoundSet[] = [];
  const newValidators: { request: Request; validators: Validators }[] = [];
  const userAgent = `${ctx.config.productName} network server (${ctx.config.publicUrl})`;

  await inBatches(requests, CONCURRENCY, async (request) => {
    const report = reports.get(request.source);
    if (!report) return;
    report.requests += 1;
    const previous = states.get(request.url);
    const usable = !force && previous && previous.catalogueKey === request.key;
    const label = sourceLabel(request.source);
    try {
      const answer = await readSource(request.url, {
        timeoutMs: fetchTimeoutMs,
        maxBytes,
        validators: usable ? { etag: previous.etag, lastModified: previous.lastModified } : null,
        userAgent,
        signal: options.signal,
      });
      if (answer.status === 'not-modified') {
        report.notModified += 1;
        await saveSourceState(db, request.url, { ...kept(previous), checkedAt: now, error: null });
        return;
      }
      const document = readElementDocument(answer.body);
      report.fetched += 1;
      report.sets += document.sets.length;
      for (const record of document.rejected) {
        if (record.norad !== null && heldByNorad.has(record.norad))
          rejections.add(record.norad, label, record.reason);
      }
      for (const candidate of document.sets) {
        if (!heldByNorad.has(candidate.norad)) continue;
        if (request.norad !== null && candidate.norad !== request.norad) {
          rejections.add(
            candidate.norad,
            label,
            `the answer for NORAD ${request.norad} carried a set for ${candidate.norad}`,
          );
          continue;
        }
        found.push({ candidate, source: label });
      }
      newValidators.push({ request, validators: answer.validators });
    } catch (err) {
      if (!(err instanceof SourceError || err instanceof DocumentFormatError)) throw err;
      const where = isHttpSource(request.url) ? new URL(request.url).host : label;
      const message = `${where}: ${err.message}`;
      report.failed += 1;
      if (report.errors.length < 5) report.errors.push(message);
      ctx.log.warn({ source: request.url, reason: err.message }, 'element-set source failed');
      await saveSourceState(db, request.url, {
        ...kept(previous),
        checkedAt: now,
        error: message.slice(0, 500),
      });
    }
  });

  const { updated, unchanged } = await applyElementSets(db, heldByNorad, found, rejections, {
    force,
    now,
  });

  // Validators are kept only once what their answer held has been stored.
  for (const { request, validators } of newValidators) {
    await saveSourceState(db, request.url, {
      etag: validators.etag,
      lastModified: validators.lastModified,
      catalogueKey: request.key,
      checkedAt: now,
      error: null,
    });
  }

  if (updated.length > 0) {
    // The ingest and auto-tune hold parsed sets in memory: they move to the new ones now.
    await ctx.services.network?.catalogue
      .refresh()
      .catch((err: unknown) => ctx.log.warn({ err }, 'satellite catalogue reload failed'));
  }
  const sourceReports = [...reports.values()];
  const failedAll = requests.length > 0 && sourceReports.every((r) => r.failed === r.requests);
  return {
    sources: sourceReports,
    updated,
    unchanged,
    rejected: rejections.list,
    rejectedTotal: rejections.total,
    ok: !failedAll,
  };
}

function kept(previous: SourceState | undefined): Omit<SourceState, 'checkedAt' | 'error'> {
  return {
    etag: previous?.etag ?? null,
    lastModified: previous?.lastModified ?? null,
    catalogueKey: previous?.catalogueKey ?? null,
  };
}
