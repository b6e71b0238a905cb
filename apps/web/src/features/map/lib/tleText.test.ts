import { describe, expect, it } from 'vitest';
import { Propagator } from './worker/propagator';
import { parseTleText, tleRecordsFor } from './tleText';

const ISS_1 = '1 25544U 98067A   19156.50900463  .00003075  00000-0  59442-4 0  9992';
const ISS_2 = '2 25544  51.6433  59.2583 0008217  16.4489 347.6017 15.51174618173442';
const AT = Date.parse('2019-06-05T12:00:00Z');

describe('parsing /v1/tles.txt', () => {
  it('reads name, line 1, line 2 triples with CRLF endings, blank lines and trailing spaces', () => {
    const text = `ISS (ZARYA)  \r\n${ISS_1}\r\n${ISS_2}\r\n\r\nNORBI\n${ISS_1}\n${ISS_2}\n`;
    expect(parseTleText(text)).toEqual([
      { name: 'ISS (ZARYA)', line1: ISS_1, line2: ISS_2 },
      { name: 'NORBI', line1: ISS_1, line2: ISS_2 },
    ]);
  });

  it('skips a broken record and resynchronises on the next complete one', () => {
    const text = ['Broken', ISS_1, 'Good', ISS_1, ISS_2].join('\n');
    expect(parseTleText(text).map((r) => r.name)).toEqual(['Good']);
  });

  it('gives nothing for an empty file', () => {
    expect(parseTleText('')).toEqual([]);
  });

  it('matches map satellites by name, then display name, case-insensitively', () => {
    const records = parseTleText(`iss (zarya)\n${ISS_1}\n${ISS_2}\nNorby-2\n${ISS_1}\n${ISS_2}`);
    const matched = tleRecordsFor(
      [
        { name: 'ISS (ZARYA)', displayName: 'ISS' },
        { name: 'norby2', displayName: 'Norby-2' },
        { name: 'nothing', displayName: 'Nothing' },
      ],
      records,
    );
    expect(matched.map((r) => r?.name ?? null)).toEqual(['iss (zarya)', 'Norby-2', null]);
  });
});

describe('positions from the parsed file', () => {
  it('places a satellite with a TLE and leaves the one without a TLE unplaced', () => {
    const propagator = new Propagator();
    propagator.load([...parseTleText(`ISS (ZARYA)\n${ISS_1}\n${ISS_2}`), null]);
    const { coords } = propagator.tick({ timeMs: AT, focus: -1 });
    const [lat = NaN, lng = NaN, alt = NaN] = coords;
    expect(Math.abs(lat)).toBeLessThanOrEqual(51.7);
    expect(lng).toBeGreaterThanOrEqual(-180);
    expect(lng).toBeLessThanOrEqual(180);
    expect(alt).toBeGreaterThan(380);
    expect(alt).toBeLessThan(440);
    expect(Number.isNaN(coords[3])).toBe(true);
  });
});
