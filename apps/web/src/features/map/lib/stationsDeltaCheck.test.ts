import { StationsDeltaEventSchema } from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { agree } from '@tinygs/contracts/schema-agreement';
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

describe('the map worker check of stations-delta events', () => {
  it('accepts what the contracts schema accepts, returns what it returns, and refuses the rest', () => {
    const changes = agree(checkStationsDelta, StationsDeltaEventSchema, event);
    const kept = agree(checkStationsDelta, StationsDeltaEventSchema, {
      seq: 3,
      full: true,
      kept: true,
      changed: [],
      removed: [],
    });
    // Both sides of the line are exercised.
    expect(changes.accepted + kept.accepted).toBeGreaterThan(20);
    expect(changes.refused + kept.refused).toBeGreaterThan(200);
  });
});
