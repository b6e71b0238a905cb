import type { StationHealth } from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { timelineSpans } from './timeline';

const base: StationHealth = {
  stationId: 'A_GS@1',
  days: 7,
  from: 1000,
  to: 2000,
  online: true,
  onlineAtStart: false,
  uptimePercent: 50,
  outages: 1,
  packetsPerDay: 0,
  transitions: [],
  transitionsTruncated: false,
  daily: [],
};

describe('status timeline', () => {
  it('splits the window at each transition', () => {
    const spans = timelineSpans(
      {
        ...base,
        transitions: [
          { at: 1200, online: true, cause: 'connect' },
          { at: 1500, online: false, cause: 'ping-timeout' },
          { at: 1800, online: true, cause: 'activity' },
        ],
      },
      0,
    );
    expect(spans).toEqual([
      { start: 1000, end: 1200, online: false },
      { start: 1200, end: 1500, online: true },
      { start: 1500, end: 1800, online: false },
      { start: 1800, end: 2000, online: true },
    ]);
  });

  it('shows time before the station existed, or before anything is known, as unknown', () => {
    expect(
      timelineSpans(
        {
          ...base,
          onlineAtStart: null,
          transitions: [{ at: 1600, online: true, cause: 'connect' }],
        },
        1400,
      ),
    ).toEqual([
      { start: 1000, end: 1600, online: null },
      { start: 1600, end: 2000, online: true },
    ]);
    expect(timelineSpans({ ...base, onlineAtStart: true }, 1300)).toEqual([
      { start: 1000, end: 1300, online: null },
      { start: 1300, end: 2000, online: true },
    ]);
  });
});
