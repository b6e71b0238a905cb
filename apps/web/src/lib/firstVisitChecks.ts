// Checks of the answers the first visit of / reads (the world map's stations and satellites, its
// live events, the carousel's photos), without zod: the contracts' schemas would bring all of zod
// (about 28 KB gzip) into the first visit for these few shapes. Each check accepts exactly what
// its contracts schema accepts and returns what that schema returns (its fields only, userId as a
// string); firstVisitChecks.test.ts holds them to the schemas. Other screens use the schemas.
import {
  STATION_ID_MAX_CHARS,
  STATION_ID_PATTERN,
  type NewPacketEvent,
  type StationListItem,
  type StationPhoto,
  type WorldmapSatellite,
} from '@tinygs/contracts';
import type { ResponseParser } from './api';

/** The value as its schema parses it, or null where that schema would fail. */
export type Check<T> = (raw: unknown) => T | null;

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNumberOrNull = (v: unknown): v is number | null => v === null || isNumber(v);
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const BANDS: readonly unknown[] = [137, 433, 900, 2400];
const USER_ID_MAX_CHARS = 20;

export const isStationId = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= STATION_ID_MAX_CHARS && STATION_ID_PATTERN.test(v);

/** StationListItemSchema */
export function checkStationListItem(v: unknown): StationListItem | null {
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
  // An optional field is kept when present, as zod keeps it (even undefined, which JSON never has).
  if ('satDisplayName' in v) {
    if (v.satDisplayName !== undefined && !isStringOrNull(v.satDisplayName)) return null;
    item.satDisplayName = v.satDisplayName as string | null | undefined;
  }
  return item;
}

/** WorldmapSatelliteSchema */
export function checkWorldmapSatellite(v: unknown): WorldmapSatellite | null {
  if (!isRow(v)) return null;
  const { name, displayName, lat, lng, alt, tleMissing } = v;
  if (typeof name !== 'string' || typeof displayName !== 'string') return null;
  if (!isNumberOrNull(lat) || !isNumberOrNull(lng) || typeof tleMissing !== 'boolean') return null;
  const satellite: WorldmapSatellite = { name, displayName, lat, lng, tleMissing };
  if ('alt' in v) {
    if (alt !== undefined && !isNumber(alt)) return null;
    satellite.alt = alt as number | undefined;
  }
  return satellite;
}

/** NewPacketEventSchema (its satPos keeps fields of its own, as SatPosSchema does) */
export function checkNewPacketEvent(v: unknown): NewPacketEvent | null {
  if (!isRow(v)) return null;
  const { satellite, satelliteName, packetId, satPos, stations } = v;
  if (typeof satellite !== 'string' || typeof satelliteName !== 'string') return null;
  if (typeof packetId !== 'string' || !isRow(satPos)) return null;
  if (!isNumber(satPos.lat) || !isNumber(satPos.lng) || !isNumber(satPos.alt)) return null;
  if (!Array.isArray(stations) || !stations.every(isStationId)) return null;
  return {
    satellite,
    satelliteName,
    packetId,
    satPos: { ...satPos } as NewPacketEvent['satPos'],
    stations: [...(stations as string[])],
  };
}

/** StationPhotoSchema */
export function checkStationPhoto(v: unknown): StationPhoto | null {
  if (!isRow(v)) return null;
  const { stationId, src, thumb, createdAt } = v;
  if (!isStationId(stationId) || typeof src !== 'string' || typeof thumb !== 'string') return null;
  if (!Number.isSafeInteger(createdAt)) return null;
  return { stationId, src, thumb, createdAt: createdAt as number };
}

/** An array of what `check` accepts (`Schema.array()`). */
export function arrayOf<T>(check: Check<T>): Check<T[]> {
  return (raw) => {
    if (!Array.isArray(raw)) return null;
    const out: T[] = [];
    for (const v of raw) {
      const item = check(v);
      if (item === null) return null;
      out.push(item);
    }
    return out;
  };
}

/** For api(): throws, naming `what`, when the answer is not what `check` accepts. */
export function parserOf<T>(check: Check<T>, what: string): ResponseParser<T> {
  return {
    parse(body) {
      const value = check(body);
      if (value === null) throw new Error(`Unexpected answer for ${what}`);
      return value;
    },
  };
}
