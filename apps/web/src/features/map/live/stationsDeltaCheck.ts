// The check of a `stations-delta` event in the map worker, without zod: the contracts' schema
// (StationsDeltaEventSchema) would bring all of zod (about 30 KB gzip) into the worker's bundle for
// this one event. It accepts exactly what that schema accepts and returns what it returns (known
// fields only, userId as a string); stationsDeltaCheck.test.ts holds the two together.
import {
  STATION_ID_MAX_CHARS,
  STATION_ID_PATTERN,
  type StationListItem,
  type StationsDeltaEvent,
} from '@tinygs/contracts';

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNumberOrNull = (v: unknown): v is number | null => v === null || isNumber(v);
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const BANDS: readonly unknown[] = [137, 433, 900, 2400];
const USER_ID_MAX_CHARS = 20;

function stationOf(v: unknown): StationListItem | null {
  if (!isRow(v)) return null;
  const { name, location, status, lastSeen, lastPacketTime, version, satellite, autoTune } = v;
  // UserIdSchema coerces to a string first.
  const userId = String(v.userId);
  if (typeof name !== 'string') return null;
  if (userId.length > USER_ID_MAX_CHARS || !/^\d+$/.test(userId)) return null;
  if (!Array.isArray(location) || location.length !== 2) return null;
  const [lat, lng] = location as unknown[];
  if (!isNumber(lat) || !isNumber(lng)) return null;
  if (status !== 0 && status !== 1) return null;
  if (!isNumberOrNull(lastSeen) || !isNumberOrNull(lastPacketTime) || !isNumberOrNull(version))
    return null;
  if (!isStringOrNull(satellite)) return null;
  if (autoTune !== null && !BANDS.includes(autoTune)) return null;
  const item: StationListItem = {
    name,
    userId,
    location: [lat, lng],
    status,
    lastSeen,
    lastPacketTime,
    version,
    satellite,
    autoTune: autoTune as StationListItem['autoTune'],
  };
  if ('satDisplayName' in v && v.satDisplayName !== undefined) {
    if (!isStringOrNull(v.satDisplayName)) return null;
    item.satDisplayName = v.satDisplayName;
  }
  return item;
}

const isStationId = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= STATION_ID_MAX_CHARS && STATION_ID_PATTERN.test(v);

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
    const item = stationOf(s);
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
