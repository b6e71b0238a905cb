import type { StationListItem } from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { StationDiffer } from './stationDiff';

const station = (name: string, over: Partial<StationListItem> = {}): StationListItem => ({
  name,
  userId: '7',
  location: [40, -3],
  status: 1,
  lastSeen: 1,
  lastPacketTime: null,
  version: 1,
  satellite: null,
  autoTune: null,
  ...over,
});

describe('stations events', () => {
  it('turn each full list into what changed since the previous one', () => {
    const differ = new StationDiffer();
    const first = differ.apply(JSON.stringify([station('A'), station('B')]));
    expect(first?.changed.map((s) => s.name)).toEqual(['A', 'B']);
    expect(first?.removed).toEqual([]);

    const second = differ.apply(
      JSON.stringify([station('A'), station('B', { status: 0 }), station('C')]),
    );
    expect(second?.changed.map((s) => [s.name, s.status])).toEqual([
      ['B', 0],
      ['C', 1],
    ]);

    const third = differ.apply(JSON.stringify([station('B', { status: 0 }), station('C')]));
    expect(third).toEqual({ changed: [], removed: ['A@7'] });
  });

  it('rejects a malformed list and keeps comparing against the last good one', () => {
    const differ = new StationDiffer();
    differ.apply(JSON.stringify([station('A')]));
    expect(differ.apply('{"not":"a list"}')).toBeNull();
    expect(differ.apply('not json')).toBeNull();
    expect(differ.apply(JSON.stringify([station('A')]))).toEqual({ changed: [], removed: [] });
  });
});
