// One element-set refresh (docs/OPERATIONS.md, "Element sets"): asks every configured source
// (conditionally), validates each set found for a catalogue satellite, keeps the newest valid one
// per satellite and stores it over an older one. A failed source, a malformed document or a set
// that fails a check changes nothing: the satellite keeps the last good set it had.
import { createHash } from 'node:crypto';
import { parseTle, subSatellitePoint, TleFormatError, type Tle } from '@tinygs/orbit';
import type { AppContext } from '../context';
import {
  listHeldSets,
  readSourceStates,
  saveSourceState,
  storeElementSet,
  type HeldSet,
  type SourceState,
} from '../repositories/element-sets';
import {
  isHttpSource,
  readSource,
  sourceLabel,
  SourceError,
  type Validators,
} from './fetch-source';
import { DocumentFormatError, readElementDocument, type CandidateSet } from './formats';

/** In a source URL, replaced by each catalogue satellite's NORAD id (one request per satellite). */
export const NORAD_PLACEHOLDER = '{NORAD}';
/** Retired satellites are not asked for one by one. */
const RETIRED = new Set(['Inactive', 'BInactive']);
/** Requests in flight at once when a source is asked per satellite. */
const CONCURRENCY = 4;
/** An epoch further ahead of now than this is a broken set, not a prediction. */
const MAX_EPOCH_AHEAD_MS = 86_400_000;
const MAX_REPORTED_REJECTIONS = 200;

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

export interface Rejection {
  satellite: string | null;
  norad: number | null;
  source: string;
  reason: string;
}

export interface RefreshReport {
  sources: SourceReport[];
  updated: {
    satellite: string;
    norad: number;
    epoch: string;
    previousEpoch: string | null;
    source: string;
  }[];
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

interface Found {
  candidate: CandidateSet;
  source: string;
}

interface Valid {
  tle: Tle;
  lines: [string, string, string];
  source: string;
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

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A set kept only when it parses (checksums, lengths), is for its satellite and propagates now. */
function validate(candidate: CandidateSet, now: number): Tle | string {
  let tle: Tle;
  try {
    tle = parseTle(candidate.lines);
  } catch (err) {
    if (err instanceof TleFormatError) return err.message;
    throw err;
  }
  if (tle.noradId !== candidate.norad)
    return `catalogue number ${tle.noradId} does not match NORAD ${candidate.norad}`;
  const epoch = tle.epoch.getTime();
  if (epoch > now + MAX_EPOCH_AHEAD_MS) return `epoch ${iso(epoch)} is in the future`;
  if (!subSatellitePoint(tle, now)) return 'SGP4 cannot propagate the set to now (decayed?)';
  return tle;
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
  const heldByNorad = new Map<number, HeldSet[]>();
  for (const h of held) heldByNorad.set(h.norad, [...(heldByNorad.get(h.norad) ?? []), h]);
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
  const rejected: Rejection[] = [];
  let rejectedTotal = 0;
  const reject = (r: Rejection) => {
    rejectedTotal += 1;
    if (rejected.length < MAX_REPORTED_REJECTIONS) rejected.push(r);
  };
  const nameOf = (norad: number | null) =>
    norad === null ? null : (heldByNorad.get(norad)?.[0]?.name ?? null);
  const found: Found[] = [];
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
          reject({
            satellite: nameOf(record.norad),
            norad: record.norad,
            source: label,
            reason: record.reason,
          });
      }
      for (const candidate of document.sets) {
        if (!heldByNorad.has(candidate.norad)) continue;
        if (request.norad !== null && candidate.norad !== request.norad) {
          reject({
            satellite: nameOf(candidate.norad),
            norad: candidate.norad,
            source: label,
            reason: `the answer for NORAD ${request.norad} carried a set for ${candidate.norad}`,
          });
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

  // The newest valid set per satellite, whichever source had it.
  const best = new Map<number, Valid>();
  for (const { candidate, source } of found) {
    const result = validate(candidate, now);
    if (typeof result === 'string') {
      reject({
        satellite: nameOf(candidate.norad),
        norad: candidate.norad,
        source,
        reason: result,
      });
      continue;
    }
    const current = best.get(candidate.norad);
    if (!current || result.epoch.getTime() > current.tle.epoch.getTime())
      best.set(candidate.norad, { tle: result, lines: candidate.lines, source });
  }

  const updated: RefreshReport['updated'] = [];
  let unchanged = 0;
  for (const [norad, set] of best) {
    const epochMs = set.tle.epoch.getTime();
    for (const h of heldByNorad.get(norad) ?? []) {
      const sameSet = h.tle === JSON.stringify(set.lines);
      if (h.tleEpoch !== null && !force && epochMs < h.tleEpoch) {
        reject({
          satellite: h.name,
          norad,
          source: set.source,
          reason: `epoch ${iso(epochMs)} is older than the held set's ${iso(h.tleEpoch)}`,
        });
        continue;
      }
      if (sameSet || (!force && h.tleEpoch === epochMs)) {
        unchanged += 1;
        continue;
      }
      const stored = await storeElementSet(db, {
        name: h.name,
        lines: set.lines,
        epochMs,
        source: set.source,
        force,
      });
      if (!stored) {
        unchanged += 1;
        continue;
      }
      updated.push({
        satellite: h.name,
        norad,
        epoch: set.tle.epoch.toISOString(),
        previousEpoch: iso(h.tleEpoch),
        source: set.source,
      });
    }
  }

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
    rejected,
    rejectedTotal,
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
