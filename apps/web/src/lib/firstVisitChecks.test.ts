import {
  NewPacketEventSchema,
  RecentPicturesResponseSchema,
  StationListItemSchema,
  WorldmapSatelliteSchema,
} from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { JSON_VALUES as VALUES } from '../../test/fixtures/jsonValues';
import {
  arrayOf,
  checkNewPacketEvent,
  checkStationListItem,
  checkStationPhoto,
  checkWorldmapSatellite,
  parserOf,
  type Check,
} from './firstVisitChecks';

type Json = unknown;
const DELETE = Symbol('delete');

/** `base` with the value at `path` replaced (or deleted). */
function replaced(base: Json, path: (string | number)[], value: unknown): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(base)) {
    const copy = [...base];
    if (value === DELETE && rest.length === 0) copy.splice(Number(head), 1);
    else copy[Number(head)] = replaced(base[Number(head)], rest, value);
    return copy;
  }
  const copy = { ...(base as Record<string, unknown>) };
  if (value === DELETE && rest.length === 0) delete copy[head];
  else copy[head] = replaced(copy[head], rest, value);
  return copy;
}

function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string, Json>)[k], [...at, k]))];
}

/** Every value with one place of `base` replaced by each of VALUES, removed, or given a stray field. */
function* variants(base: Json): Generator<Json> {
  yield base;
  for (const path of paths(base)) {
    if (path.length > 0) yield replaced(base, path, DELETE);
    for (const v of VALUES) yield replaced(base, path, v);
    const here = path.reduce<Json>((o, k) => (o as Record<string, Json>)[k], base);
    if (typeof here === 'object' && here !== null && !Array.isArray(here))
      yield replaced(base, path, { ...here, stray: 1 });
  }
}

function agree<T>(check: Check<T>, schema: { safeParse(v: unknown): unknown }, base: Json) {
  let accepted = 0;
  let refused = 0;
  for (const raw of variants(base)) {
    const parsed = schema.safeParse(raw) as { success: boolean; data?: unknown };
    const checked = check(raw);
    if (parsed.success) {
      accepted += 1;
      expect(checked, JSON.stringify(raw)).toStrictEqual(parsed.data);
    } else {
      refused += 1;
      expect(checked, JSON.stringify(raw)).toBeNull();
    }
  }
  return { accepted, refused };
}

const station = {
  name: 'GS_1',
  userId: 7,
  location: [40.4, -3.7],
  status: 1,
  lastSeen: 1_700_000_000_000,
  lastPacketTime: null,
  version: 2_405_101,
  satellite: 'Norbi',
  satDisplayName: 'Norbi',
  autoTune: 433,
};

describe('the first visit checks, held to the contracts schemas', () => {
  it('checks the station list as StationListItemSchema.array() does', () => {
    const { accepted, refused } = agree(
      arrayOf(checkStationListItem),
      StationListItemSchema.array(),
      [station, { ...station, name: 'GS_2', satDisplayName: null, autoTune: null }],
    );
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(300);
  });

  it('checks the map satellites as WorldmapSatelliteSchema.array() does', () => {
    const satellite = {
      name: 'Norbi',
      displayName: 'Norbi',
      lat: 1,
      lng: 2,
      alt: 550,
      tleMissing: false,
    };
    const { accepted, refused } = agree(
      arrayOf(checkWorldmapSatellite),
      WorldmapSatelliteSchema.array(),
      [satellite, { ...satellite, lat: null, lng: null, alt: undefined, tleMissing: true }],
    );
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(100);
  });

  it('checks a new-packet event as NewPacketEventSchema does, keeping its position fields', () => {
    const event = {
      satellite: 'Norbi',
      satelliteName: 'Norbi',
      packetId: 'p1',
      satPos: { lat: 1, lng: 2, alt: 550, extra: 'kept' },
      stations: ['GS_1@7', 'GS_2@8'],
    };
    const { accepted, refused } = agree(checkNewPacketEvent, NewPacketEventSchema, event);
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(100);
  });

  it('checks the recent photos as RecentPicturesResponseSchema does', () => {
    const photo = {
      stationId: 'GS_1@7',
      src: '/pictures/a.jpg',
      thumb: '/pictures/a_t.jpg',
      createdAt: 1,
    };
    const { accepted, refused } = agree(arrayOf(checkStationPhoto), RecentPicturesResponseSchema, [
      photo,
      { ...photo, createdAt: 2 },
    ]);
    expect(accepted).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(100);
  });

  it('makes a failed check a thrown error naming the answer', () => {
    const parser = parserOf(arrayOf(checkStationPhoto), 'the recent photos');
    expect(() => parser.parse([{}])).toThrow('Unexpected answer for the recent photos');
    expect(parser.parse([])).toEqual([]);
  });
});
