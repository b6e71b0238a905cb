import { describe, expect, it } from 'vitest';
import {
  footprintCircle,
  groundDistanceKm,
  maidenheadLocator,
  orbitPath,
  parseTle,
  splitAtAntimeridian,
  type LatLng,
} from '../src/index';
import { ISS_2019, ISS_2019_TIME } from './fixtures';

function expectNoJumps(lines: LatLng[][]): void {
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [, previousLng] = line[i - 1] as LatLng;
      const [, lng] = line[i] as LatLng;
      expect(Math.abs(lng - previousLng)).toBeLessThanOrEqual(180);
    }
  }
}

describe('splitAtAntimeridian', () => {
  it('cuts a line crossing 180 and interpolates the crossing on both edges', () => {
    const lines = splitAtAntimeridian([
      [0, 170],
      [10, -170],
      [12, -160],
    ]);
    expect(lines).toEqual([
      [
        [0, 170],
        [5, 180],
      ],
      [
        [5, -180],
        [10, -170],
        [12, -160],
      ],
    ]);
    // Westward across -180 as well.
    expect(
      splitAtAntimeridian([
        [-20, -175],
        [-30, 175],
      ]),
    ).toEqual([
      [
        [-20, -175],
        [-25, -180],
      ],
      [
        [-25, 180],
        [-30, 175],
      ],
    ]);
    expect(
      splitAtAntimeridian([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([
      [
        [1, 2],
        [3, 4],
      ],
    ]);
    expect(splitAtAntimeridian([])).toEqual([]);
  });
});

describe('orbitPath', () => {
  it('gives 190 minutes of ground track in 1-minute steps without jumps across the map', () => {
    const lines = orbitPath(parseTle(ISS_2019), ISS_2019_TIME);
    // Two orbits of ~93 minutes cross the antimeridian twice.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expectNoJumps(lines);
    const total = lines.reduce((sum, line) => sum + line.length, 0);
    // 191 propagated points, plus one interpolated edge point on each side of every split.
    expect(total).toBe(191 + 2 * (lines.length - 1));
    for (let i = 1; i < lines.length; i++) {
      const end = (lines[i - 1] as LatLng[]).at(-1) as LatLng;
      const start = (lines[i] as LatLng[])[0] as LatLng;
      expect(Math.abs(end[1])).toBe(180);
      expect(start[1]).toBe(-end[1]);
      expect(start[0]).toBe(end[0]);
    }
    const first = (lines[0] as LatLng[])[0] as LatLng;
    const last = (lines.at(-1) as LatLng[]).at(-1) as LatLng;
    expect(first).not.toEqual(last);
  });

  it('honours other lengths and steps', () => {
    const lines = orbitPath(parseTle(ISS_2019), ISS_2019_TIME, 30, 5);
    expect(lines.reduce((sum, line) => sum + line.length, 0)).toBe(7 + 2 * (lines.length - 1));
  });
});

describe('footprintCircle', () => {
  it('draws a plain ring when the circle stays inside the map', () => {
    const rings = footprintCircle(40, -3, 2000, 36);
    expect(rings).toHaveLength(1);
    expect(rings[0]).toHaveLength(36);
    for (const point of rings[0] ?? [])
      expect(groundDistanceKm([40, -3], point)).toBeCloseTo(2000, 6);
  });

  it('cuts a circle across the antimeridian into two rings closed on the map edges', () => {
    const rings = footprintCircle(0, 175, 1000, 72);
    expect(rings).toHaveLength(2);
    expectNoJumps(rings);
    const [east, west] = rings as [LatLng[], LatLng[]];
    expect(east.every(([, lng]) => lng >= 160 && lng <= 180)).toBe(true);
    expect(west.every(([, lng]) => lng >= -180 && lng <= -170)).toBe(true);
    for (const point of [...east, ...west]) {
      if (Math.abs(point[1]) === 180) continue;
      expect(groundDistanceKm([0, 175], point)).toBeCloseTo(1000, 6);
    }
    // Each edge point lies on the circle too (within the chord error of the 5-degree steps).
    const edgePoints = [...east, ...west].filter(([, lng]) => Math.abs(lng) === 180);
    expect(edgePoints).toHaveLength(4);
    for (const point of edgePoints) expect(groundDistanceKm([0, 175], point)).toBeGreaterThan(990);
  });

  it('closes a circle around a pole through the pole latitude', () => {
    const rings = footprintCircle(80, 10, 2000, 90);
    expect(rings).toHaveLength(1);
    const ring = rings[0] ?? [];
    expectNoJumps(rings);
    // Closed along the pole in quarter steps: 180, 90, 0, -90, -180.
    expect(ring.filter(([lat]) => lat === 90).map(([, lng]) => Math.abs(lng))).toEqual([
      180, 90, 0, 90, 180,
    ]);
    expect(ring.filter(([lat, lng]) => lat !== 90 && Math.abs(lng) === 180)).toHaveLength(2);
    expect(Math.min(...ring.map(([lat]) => lat))).toBeCloseTo(
      80 - (2000 / 6378.137) * (180 / Math.PI),
      6,
    );
    // The same for the south pole.
    const south = footprintCircle(-75, -120, 2500, 90)[0] ?? [];
    expect(south.filter(([lat]) => lat === -90)).toHaveLength(5);
    expectNoJumps([south]);
  });
});

describe('maidenheadLocator', () => {
  it('locates known places', () => {
    // Worked by hand from the definition (fields 20x10 deg, squares 2x1 deg, subsquares 5'x2.5'):
    // Madrid 40.4168 N 3.7038 W: lng+180 = 176.2962 -> I, 8, d (0.2962 / (1/12) = 3.55);
    // lat+90 = 130.4168 -> N, 0, k (0.4168 / (1/24) = 10.003).
    expect(maidenheadLocator(40.4168, -3.7038)).toBe('IN80dk');
    // Munich, the example of the Maidenhead Locator System article.
    expect(maidenheadLocator(48.14666, 11.60833)).toBe('JN58td');
    // Washington DC (FM18lv) and Sydney (QF56od).
    expect(maidenheadLocator(38.9072, -77.0369)).toBe('FM18lv');
    expect(maidenheadLocator(-33.8568, 151.2153)).toBe('QF56od');
  });

  it('gives shorter and longer locators and copes with the map corners', () => {
    expect(maidenheadLocator(40.4168, -3.7038, 4)).toBe('IN80');
    expect(maidenheadLocator(40.4168, -3.7038, 2)).toBe('IN');
    // Extended square: 0.2962 - 3/12 = 0.0462 -> 0.0462 / (1/120) = 5.5; 0.4168 - 10/24 = 0.000133 -> 0.
    expect(maidenheadLocator(40.4168, -3.7038, 8)).toBe('IN80dk50');
    expect(maidenheadLocator(-90, -180)).toBe('AA00aa');
    expect(maidenheadLocator(90, 179.9999999)).toBe('RR99xx');
    expect(maidenheadLocator(0, 180)).toBe(maidenheadLocator(0, -180));
    expect(() => maidenheadLocator(91, 0)).toThrow(RangeError);
  });
});
