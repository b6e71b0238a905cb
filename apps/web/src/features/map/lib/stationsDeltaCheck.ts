// The check of a `stations-delta` event in the map worker, without zod: the contracts' schema
// (StationsDeltaEventSchema) would bring all of zod (about 30 KB gzip) into the worker's bundle for
// this one event. It accepts exactly what that schema accepts and returns what it returns (known
// fields only, userId as a string); stationsDeltaCheck.test.ts holds the two together.
import type { StationListItem, StationsDeltaEvent } from '@tinygs/contracts';
import { checkStationListItem, isStationId } from '../../../lib/firstVisitChecks';

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The event as StationsDeltaEventSchema parses it, or null where that schema would fail. */
export function checkStationsDelta(raw: unknown): StationsDeltaEvent | null {
  if (!isRow(raw)) return null;
  const { seq, full, changed, removed, kept } = raw;
  if (!Number.isSafeInteger(seq) || (seq as number) < 0) return null;
  if (typeof full !== 'boolean') return null;
  if (!Array.isArray(changed) || !Array.isArray(removed)) return null;
  if (kept !== undefined && kept !== true) return null;
  const stations: StationListItem[] = [];
  for (const s of changed) {
    const item = checkStationListItem(s);
    if (!item) return null;
    stations.push(item);
  }
  if (!removed.every(isStationId)) return null;
  const event: StationsDeltaEvent = {
    seq: seq as number,
    full,
    changed: stations,
    removed: removed as string[],
  };
  if (kept) event.kept = true;
  return event;
}
