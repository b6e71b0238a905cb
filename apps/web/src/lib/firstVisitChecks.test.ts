import {
  NewPacketEventSchema,
  RecentPicturesResponseSchema,
  StationListItemSchema,
  WorldmapSatelliteSchema,
} from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { agree } from '@tinygs/contracts/schema-agreement';
import {
  arrayOf,
  checkNewPacketEvent,
  checkStationListItem,
  checkStationPhoto,
  checkWorldmapSatellite,
  parserOf,
} from './firstVisitChecks';

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
