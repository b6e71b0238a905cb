import fc from 'fast-check';
import { twoline2satrec } from 'satellite.js';
import { describe, expect, it } from 'vitest';
import {
  makeTleLines,
  parseTle,
  tleChecksum,
  TleFormatError,
  type TleElements,
} from '../src/index';
import { ISS_2008, ISS_2019 } from './fixtures';

const DEG = 180 / Math.PI;
const REV_PER_DAY_PER_RAD_PER_MIN = 1440 / (2 * Math.PI);

describe('tleChecksum', () => {
  it('matches the checksum column of published TLE lines', () => {
    for (const line of [ISS_2008[1], ISS_2008[2], ISS_2019[1], ISS_2019[2]]) {
      expect(tleChecksum(line)).toBe(Number(line[68]));
    }
  });

  it('counts digits and minus signs only, modulo 10', () => {
    // 1+2+3 + 1 (minus) + 4 = 11 -> 1; letters, dots, plus signs and spaces count 0.
    expect(tleChecksum('1 2 3 -4 A.+')).toBe(1);
    // Column 69 (the checksum itself) is not part of the sum.
    expect(tleChecksum(`${'0'.repeat(68)}9`)).toBe(0);
  });
});

describe('parseTle', () => {
  it('reads name, catalogue number, epoch and elements', () => {
    const tle = parseTle(ISS_2019);
    expect(tle.name).toBe('ISS (ZARYA)');
    expect(tle.noradId).toBe(25544);
    // Day 156.50900463 of 2019 = 5 June, 0.50900463 d = 12:12:58.000.
    expect(tle.epoch.toISOString()).toBe('2019-06-05T12:12:58.000Z');
    expect(tle.satrec.inclo * DEG).toBeCloseTo(51.6433, 6);
  });

  it('accepts text with two or three lines and a "0 " name prefix, and returns the cached object', () => {
    const fromText = parseTle(`0 ISS (ZARYA)\r\n${ISS_2019[1]}\r\n${ISS_2019[2]}\r\n`);
    expect(fromText).toBe(parseTle(ISS_2019));
    const unnamed = parseTle(`${ISS_2008[1]}\n${ISS_2008[2]}`);
    expect(unnamed.name).toBe('');
    expect(unnamed.epoch.toISOString()).toBe('2008-09-20T12:25:40.104Z');
  });

  it('rejects a wrong checksum, a short line, swapped lines and mismatched catalogue numbers', () => {
    const badChecksum = `${ISS_2019[1].slice(0, 68)}0`;
    expect(() => parseTle(['X', badChecksum, ISS_2019[2]])).toThrow(/checksum/);
    expect(() => parseTle(['X', ISS_2019[1].slice(0, 60), ISS_2019[2]])).toThrow(TleFormatError);
    expect(() => parseTle(['X', ISS_2019[2], ISS_2019[1]])).toThrow(/must start with "1 "/);
    const otherSat = makeTleLines({ ...circularElements(), noradId: 25545 });
    expect(() => parseTle(['X', ISS_2019[1], otherSat[2]])).toThrow(/catalogue numbers/);
    expect(() => parseTle('just one line')).toThrow(TleFormatError);
    // Perigee below the ground: SGP4 refuses it at the epoch already.
    const underground = makeTleLines({
      ...circularElements(),
      eccentricity: 0.1,
      meanMotionRevPerDay: 16,
    });
    expect(() => parseTle(underground)).toThrow(/SGP4 cannot initialise/);
  });
});

function circularElements(): TleElements {
  return {
    name: 'DEMO-1',
    noradId: 99001,
    epoch: new Date('2024-03-20T03:06:00Z'),
    inclinationDeg: 97.4,
    raanDeg: 123.4567,
    eccentricity: 0.0011,
    argPerigeeDeg: 45.5,
    meanAnomalyDeg: 300.25,
    meanMotionRevPerDay: 15.2,
  };
}

describe('makeTleLines', () => {
  it('writes fixed-width lines with valid checksums that satellite.js reads back', () => {
    const [name, line1, line2] = makeTleLines({
      ...circularElements(),
      bstar: -0.000011606,
      meanMotionDotOver2RevPerDay2: -0.00002182,
      intlDesignator: '24001A',
      elementSetNumber: 292,
      revolutionNumberAtEpoch: 56353,
    });
    expect(name).toBe('DEMO-1');
    expect(line1).toBe('1 99001U 24001A   24080.12916667 -.00002182  00000-0 -11606-4 0  2927');
    expect(line2).toBe('2 99001  97.4000 123.4567 0011000  45.5000 300.2500 15.20000000563535');
    for (const line of [line1, line2]) expect(tleChecksum(line)).toBe(Number(line[68]));

    const satrec = twoline2satrec(line1, line2);
    expect(satrec.error).toBe(0);
    expect(satrec.satnum).toBe('99001');
    expect(satrec.inclo * DEG).toBeCloseTo(97.4, 6);
    expect(satrec.nodeo * DEG).toBeCloseTo(123.4567, 6);
    expect(satrec.ecco).toBeCloseTo(0.0011, 9);
    expect(satrec.bstar).toBeCloseTo(-0.000011606, 12);
    expect(satrec.ndot * REV_PER_DAY_PER_RAD_PER_MIN * 1440).toBeCloseTo(-0.00002182, 12);
    expect(Number(line2.slice(52, 63))).toBe(15.2);
  });

  it('wraps angles into [0, 360) and writes catalogue numbers above 99999 in Alpha-5', () => {
    const lines = makeTleLines({
      ...circularElements(),
      noradId: 123456,
      raanDeg: -10,
      argPerigeeDeg: 360,
    });
    expect(lines[1].slice(2, 7)).toBe('C3456');
    expect(lines[2].slice(17, 25)).toBe('350.0000');
    expect(lines[2].slice(34, 42)).toBe('  0.0000');
    expect(parseTle(lines).noradId).toBe(123456);
  });

  it('refuses values the format cannot hold', () => {
    expect(() => makeTleLines({ ...circularElements(), eccentricity: 1 })).toThrow(RangeError);
    expect(() => makeTleLines({ ...circularElements(), noradId: 340000 })).toThrow(RangeError);
    expect(() => makeTleLines({ ...circularElements(), meanMotionRevPerDay: 100 })).toThrow(
      RangeError,
    );
  });

  it('round-trips arbitrary elements through parseTle within the precision of the format', () => {
    const elements = fc.record({
      noradId: fc.integer({ min: 1, max: 339_999 }),
      epochMs: fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2050, 0, 1) }),
      inclinationDeg: fc.double({ min: 0, max: 180, noNaN: true }),
      raanDeg: fc.double({ min: -720, max: 720, noNaN: true }),
      // Perigee stays above ~200 km up to 15.8 rev/day; below 6.4 rev/day SGP4 uses deep-space terms.
      eccentricity: fc.double({ min: 0, max: 0.01, noNaN: true }),
      argPerigeeDeg: fc.double({ min: 0, max: 360, noNaN: true }),
      meanAnomalyDeg: fc.double({ min: 0, max: 360, noNaN: true }),
      meanMotionRevPerDay: fc.double({ min: 1, max: 15.8, noNaN: true }),
      bstar: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
    });
    fc.assert(
      fc.property(elements, (e) => {
        const lines = makeTleLines({ ...e, name: 'P', epoch: new Date(e.epochMs) });
        expect(lines[1]).toHaveLength(69);
        expect(lines[2]).toHaveLength(69);
        const tle = parseTle(lines);
        expect(tle.noradId).toBe(e.noradId);
        expect(Math.abs(tle.epoch.getTime() - e.epochMs)).toBeLessThanOrEqual(1);
        expect(tle.satrec.inclo * DEG).toBeCloseTo(e.inclinationDeg, 3);
        const raanError = Math.abs(tle.satrec.nodeo * DEG - (((e.raanDeg % 360) + 360) % 360));
        expect(Math.min(raanError, 360 - raanError)).toBeLessThan(1e-4);
        expect(tle.satrec.ecco).toBeCloseTo(e.eccentricity, 6);
        // satellite.js replaces satrec.no with the SGP4 (un-Kozai) mean motion, so read the field.
        expect(Number(lines[2].slice(52, 63))).toBeCloseTo(e.meanMotionRevPerDay, 7);
        expect(Math.abs(tle.satrec.bstar - e.bstar)).toBeLessThanOrEqual(
          Math.abs(e.bstar) * 1e-4 + 1e-14,
        );
      }),
      { numRuns: 300 },
    );
  });
});
