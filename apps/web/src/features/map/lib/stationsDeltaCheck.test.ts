import { StationsDeltaEventSchema } from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { JSON_VALUES as VALUES } from '../../../../test/fixtures/jsonValues';
import { checkStationsDelta } from './stationsDeltaCheck';

const station = {
  name: 'GS_1',
  userId: '7',
  location: [40.4, -3.7],
  status: 1,
  lastSeen: 1_700_000_000_000,
  lastPacketTime: null,
  version: 2_405_101,
  satellite: 'Norbi',
  satDisplayName: 'Norbi',
  autoTune: 433,
};
const event = { seq: 3, full: false, changed: [station], removed: ['Old_GS@7'] };

const without = (row: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(row).filter(([k]) => k !== key));

/** Every event with one field of the event, of its station or of its removed ids replaced. */
function* variants(): Generator<unknown> {
  yield event;
  yield { ...event, changed: [{ ...station, extra: 'dropped' }], extra: 1 };
  yield { ...event, changed: [without(station, 'satDisplayName')] };
  yield { ...event, full: true, kept: true, changed: [], removed: [] };
  for (const v of VALUES) {
    yield v;
    yield { ...event, changed: [v] };
    yield { ...event, removed: [v] };
    for (const key of ['seq', 'full', 'changed', 'removed', 'kept'])
      yield v === undefined ? without(event, key) : { ...event, [key]: v };
    for (const key of Object.keys(station))
      yield {
        ...event,
        changed: [v === undefined ? without(station, key) : { ...station, [key]: v }],
      };
    yield { ...event, changed: [{ ...station, location: [v, 1] }] };
    yield { ...event, changed: [{ ...station, location: [1, v] }] };
  }
}

describe('the map worker check of stations-delta events', () => {
  it('accepts what the contracts schema accepts, returns what it returns, and refuses the rest', () => {
    let accepted = 0;
    let refused = 0;
    for (const raw of variants()) {
      const schema = StationsDeltaEventSchema.safeParse(raw);
      const checked = checkStationsDelta(raw);
      if (schema.success) {
        accepted += 1;
        expect(checked, JSON.stringify(raw)).toStrictEqual(schema.data);
      } else {
        refused += 1;
        expect(checked, JSON.stringify(raw)).toBeNull();
      }
    }
    // Both sides of the line are exercised.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(200);
  });
});
