import { describe, expect, it } from 'vitest';
import { posixTimeZone } from './posixTimeZone';

// Expected values are the POSIX strings of the IANA tz database for the current rules.
describe('IANA zone to POSIX TZ', () => {
  it.each([
    ['Europe/Madrid', 'CET-1CEST,M3.5.0,M10.5.0/3'],
    ['Europe/London', 'GMT0BST,M3.5.0/1,M10.5.0'],
    ['America/New_York', 'EST5EDT,M3.2.0,M11.1.0'],
    ['America/Los_Angeles', 'PST8PDT,M3.2.0,M11.1.0'],
    ['Australia/Sydney', 'AEST-10AEDT,M10.1.0,M4.1.0/3'],
    ['Asia/Kolkata', 'IST-5:30'],
    ['Asia/Tokyo', 'JST-9'],
    ['UTC', 'UTC0'],
    ['America/Sao_Paulo', '<-03>3'],
    ['Asia/Kathmandu', '<+0545>-5:45'],
    ['America/Santiago', '<-04>4<-03>,M9.1.6/24,M4.1.6/24'],
    ['Asia/Jerusalem', '<+02>-2<+03>,M3.4.4/26,M10.5.0'],
    ['Australia/Lord_Howe', 'LHST-10:30LHDT-11,M10.1.0,M4.1.0'],
    ['Pacific/Auckland', 'NZST-12NZDT,M9.5.0,M4.1.0/3'],
  ])('%s -> %s', (zone, posix) => {
    expect(posixTimeZone(zone, 2026)).toBe(posix);
  });

  it('rejects an unknown zone', () => {
    expect(() => posixTimeZone('Mars/Olympus_Mons', 2026)).toThrow(RangeError);
  });
});
