// Validating candidate element sets and storing the newest valid one per catalogue satellite over
// an older held one. Shared by the scheduled refresh and the SatNOGS DB import (`--tle`).
import { parseTle, subSatellitePoint, TleFormatError, type Tle } from '@tinygs/orbit';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { storeElementSet, type HeldSet } from '../repositories/element-sets';
import type { CandidateSet } from './formats';

/** An epoch further ahead of now than this is a broken set, not a prediction. */
const MAX_EPOCH_AHEAD_MS = 86_400_000;
const MAX_REPORTED_REJECTIONS = 200;

export interface Rejection {
  satellite: string | null;
  norad: number | null;
  source: string;
  reason: string;
}

export interface UpdatedSet {
  satellite: string;
  norad: number;
  epoch: string;
  previousEpoch: string | null;
  source: string;
}

/** A candidate set and the label of the source it came from (stored as `tleSource`). */
export interface FoundSet {
  candidate: CandidateSet;
  source: string;
}

/** Rejections of one run: all counted, the first ones kept for the report. */
export class Rejections {
  readonly list: Rejection[] = [];
  total = 0;

  constructor(private readonly held: ReadonlyMap<number, readonly HeldSet[]>) {}

  add(norad: number | null, source: string, reason: string, satellite?: string): void {
    this.total += 1;
    if (this.list.length >= MAX_REPORTED_REJECTIONS) return;
    const name = satellite ?? (norad === null ? null : (this.held.get(norad)?.[0]?.name ?? null));
    this.list.push({ satellite: name, norad, source, reason });
  }
}

export function groupByNorad(held: readonly HeldSet[]): Map<number, HeldSet[]> {
  const byNorad = new Map<number, HeldSet[]>();
  for (const h of held) byNorad.set(h.norad, [...(byNorad.get(h.norad) ?? []), h]);
  return byNorad;
}

export function iso(ms: number | null): string | null {
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

/**
 * Stores, per catalogue satellite, the newest valid set found, unless the held one is newer (or
 * the same); `force` takes older sets too. Sets for objects not in `held` are ignored.
 */
export async function applyElementSets(
  db: Kysely<Database>,
  held: ReadonlyMap<number, readonly HeldSet[]>,
  found: readonly FoundSet[],
  rejections: Rejections,
  options: { force: boolean; now: number },
): Promise<{ updated: UpdatedSet[]; unchanged: number }> {
  const { force, now } = options;
  const best = new Map<number, { tle: Tle; lines: [string, string, string]; source: string }>();
  for (const { candidate, source } of found) {
    if (!held.has(candidate.norad)) continue;
    const result = validate(candidate, now);
    if (typeof result === 'string') {
      rejections.add(candidate.norad, source, result);
      continue;
    }
    const current = best.get(candidate.norad);
    if (!current || result.epoch.getTime() > current.tle.epoch.getTime())
      best.set(candidate.norad, { tle: result, lines: candidate.lines, source });
  }

  const updated: UpdatedSet[] = [];
  let unchanged = 0;
  for (const [norad, set] of best) {
    const epochMs = set.tle.epoch.getTime();
    for (const h of held.get(norad) ?? []) {
      if (h.tleEpoch !== null && !force && epochMs < h.tleEpoch) {
        const reason = `epoch ${iso(epochMs)} is older than the held set's ${iso(h.tleEpoch)}`;
        rejections.add(norad, set.source, reason, h.name);
        continue;
      }
      const sameSet = h.tle === JSON.stringify(set.lines);
      const stored =
        !sameSet &&
        (force || h.tleEpoch !== epochMs) &&
        (await storeElementSet(db, {
          name: h.name,
          lines: set.lines,
          epochMs,
          source: set.source,
          force,
        }));
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
  return { updated, unchanged };
}
