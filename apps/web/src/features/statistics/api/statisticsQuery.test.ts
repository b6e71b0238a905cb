import { describe, expect, it } from 'vitest';
import { StatisticsResponseSchema } from '@tinygs/contracts';
import { statisticsParser } from './statisticsQuery';

// The home page checks GET /v1/statistics without zod; it must accept and refuse exactly what the
// contracts schema does, and return the same value.
const SAMPLES: unknown[] = [
  { members: 5321, stations: 1200, packets: 9876543 },
  { members: 0, stations: 0, packets: 0 },
  { members: 1, stations: 2, packets: 3, extra: 'ignored' },
  { members: -1, stations: 2, packets: 3 },
  { members: 1.5, stations: 2, packets: 3 },
  { members: 1, stations: '2', packets: 3 },
  { members: 1, stations: 2 },
  { members: 1, stations: 2, packets: Number.MAX_SAFE_INTEGER + 2 },
  { members: 1, stations: 2, packets: Number.NaN },
  [1, 2, 3],
  null,
  'members',
  42,
];

describe('statistics answer check', () => {
  it.each(SAMPLES.map((s) => [JSON.stringify(s), s] as const))(
    'agrees with the schema: %s',
    (_, sample) => {
      const expected = StatisticsResponseSchema.safeParse(sample);
      if (expected.success) expect(statisticsParser.parse(sample)).toEqual(expected.data);
      else expect(() => statisticsParser.parse(sample)).toThrow();
    },
  );
});
