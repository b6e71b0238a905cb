import { describe, expect, it } from 'vitest';
import { stackedDays } from './statsData';

const frame = (satellite: string) => ({ satellite, satPos: { lat: 0, lng: 0 } });

describe('station statistics as stacked days', () => {
  const today = new Date('2025-03-30T12:00:00Z');
  const stats = [
    { day: '2025-03-30', frames: [frame('Norbi'), frame('Norbi'), frame('FOSSA')] },
    { day: '2025-03-01', frames: [frame('FOSSA')] },
    { day: '2025-02-01', frames: [frame('Norbi')] }, // older than 30 days: left out
  ];

  it('has 30 days ending today and one series per satellite', () => {
    const data = stackedDays(stats, '', today);
    expect(data.days).toHaveLength(30);
    expect(data.days[0]).toBe('2025-03-01');
    expect(data.days[29]).toBe('2025-03-30');
    expect(data.series.map((s) => s.satellite)).toEqual(['FOSSA', 'Norbi']);
    expect(data.series[0]?.counts[0]).toBe(1);
    expect(data.series[0]?.counts[29]).toBe(1);
    expect(data.series[1]?.counts[29]).toBe(2);
    expect(data.series[1]?.counts.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('keeps only the chosen satellite', () => {
    const data = stackedDays(stats, 'Norbi', today);
    expect(data.series.map((s) => s.satellite)).toEqual(['Norbi']);
  });
});
