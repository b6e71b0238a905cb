import { describe, expect, it } from 'vitest';
import {
  dopplerShiftHz,
  lookAngles,
  maxElevationWithin,
  nextPasses,
  parseTle,
  subSatellitePoint,
  type Observer,
} from '../src/index';
import { ISS_2019, ISS_2019_TIME, MADRID } from './fixtures';

const tle = parseTle(ISS_2019);
const t0 = ISS_2019_TIME.getTime();

function elevationDeg(observer: Observer, epochMs: number): number {
  const look = lookAngles(tle, epochMs, observer);
  if (!look) throw new Error('propagation failed');
  return look.elevationDeg;
}

function angleBetweenDeg(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
}

describe('lookAngles', () => {
  const below = subSatellitePoint(tle, t0);
  if (!below) throw new Error('propagation failed');

  it('sees a satellite straight up from its sub-satellite point, at a range equal to its height', () => {
    const look = lookAngles(tle, t0, { latDeg: below.lat, lngDeg: below.lng, altKm: 0 });
    expect(look?.elevationDeg).toBeGreaterThan(89.9);
    expect(look?.rangeKm).toBeCloseTo(below.alt, 1);
  });

  it('points north from the south, west from the east and east from the west', () => {
    const fromSouth = lookAngles(tle, t0, { latDeg: below.lat - 5, lngDeg: below.lng, altKm: 0 });
    const fromEast = lookAngles(tle, t0, { latDeg: below.lat, lngDeg: below.lng + 5, altKm: 0 });
    const fromWest = lookAngles(tle, t0, { latDeg: below.lat, lngDeg: below.lng - 5, altKm: 0 });
    expect(angleBetweenDeg(fromSouth?.azimuthDeg ?? NaN, 0)).toBeLessThan(1);
    expect(angleBetweenDeg(fromEast?.azimuthDeg ?? NaN, 270)).toBeLessThan(5);
    expect(angleBetweenDeg(fromWest?.azimuthDeg ?? NaN, 90)).toBeLessThan(5);
    // 5 degrees of arc (~556 km) away from a 420 km high satellite: well above the horizon.
    expect(fromSouth?.elevationDeg).toBeGreaterThan(25);
    expect(fromSouth?.elevationDeg).toBeLessThan(50);
  });

  it('reports the range rate as the time derivative of the range', () => {
    for (const offsetS of [-400, -120, 0, 200, 500]) {
      const at = t0 + offsetS * 1000;
      const look = lookAngles(tle, at, MADRID);
      const before = lookAngles(tle, at - 500, MADRID);
      const after = lookAngles(tle, at + 500, MADRID);
      if (!look || !before || !after) throw new Error('propagation failed');
      expect(look.rangeRateKmPerS).toBeCloseTo(after.rangeKm - before.rangeKm, 3);
    }
  });
});

describe('dopplerShiftHz', () => {
  it('raises the frequency of an approaching satellite and lowers it of a receding one', () => {
    // 437 MHz at 7 km/s: 437e6 * 7 / 299792.458 = 10203.73 Hz.
    expect(dopplerShiftHz(437, -7)).toBeCloseTo(10203.73, 2);
    expect(dopplerShiftHz(437, 7)).toBeCloseTo(-10203.73, 2);
    expect(dopplerShiftHz(437, 0)).toBeCloseTo(0, 9);
  });

  it('changes sign at the highest point of a real pass', () => {
    const [pass] = nextPasses(tle, MADRID, t0, 12);
    if (!pass) throw new Error('no pass');
    const rising = lookAngles(tle, pass.aos.getTime() + 60_000, MADRID);
    const setting = lookAngles(tle, pass.los.getTime() - 60_000, MADRID);
    if (!rising || !setting) throw new Error('propagation failed');
    expect(dopplerShiftHz(437, rising.rangeRateKmPerS)).toBeGreaterThan(3000);
    expect(dopplerShiftHz(437, setting.rangeRateKmPerS)).toBeLessThan(-3000);
  });
});

describe('passes', () => {
  it('finds every pass over a day, with AOS and LOS on the horizon and the true peak', () => {
    const passes = nextPasses(tle, MADRID, t0, 24);
    expect(passes.length).toBeGreaterThanOrEqual(4);
    let previousLos = t0;
    for (const pass of passes) {
      expect(pass.aos.getTime()).toBeGreaterThanOrEqual(previousLos);
      expect(pass.maxElevationAt.getTime()).toBeGreaterThan(pass.aos.getTime());
      expect(pass.los.getTime()).toBeGreaterThan(pass.maxElevationAt.getTime());
      // An ISS pass lasts at most ~11 minutes.
      expect(pass.los.getTime() - pass.aos.getTime()).toBeLessThan(12 * 60_000);
      expect(Math.abs(elevationDeg(MADRID, pass.aos.getTime()))).toBeLessThan(0.05);
      expect(Math.abs(elevationDeg(MADRID, pass.los.getTime()))).toBeLessThan(0.05);
      expect(elevationDeg(MADRID, pass.maxElevationAt.getTime())).toBeCloseTo(
        pass.maxElevationDeg,
        6,
      );
      previousLos = pass.los.getTime();
    }
    // A 10-second scan finds no time above the horizon outside the passes, and the same peaks.
    for (let at = t0; at <= t0 + 24 * 3_600_000; at += 10_000) {
      const elevation = elevationDeg(MADRID, at);
      if (elevation <= 0.2) continue;
      const pass = passes.find((p) => p.aos.getTime() <= at && at <= p.los.getTime());
      expect(pass).toBeDefined();
      expect(elevation).toBeLessThanOrEqual((pass?.maxElevationDeg ?? 0) + 1e-6);
    }
  });

  it('starts a pass already in progress at the window start', () => {
    const [first] = nextPasses(tle, MADRID, t0, 12);
    if (!first) throw new Error('no pass');
    const midPass = first.maxElevationAt.getTime();
    const [current] = nextPasses(tle, MADRID, midPass, 1);
    expect(current?.aos.getTime()).toBe(midPass);
    expect(current?.los.getTime()).toBeCloseTo(first.los.getTime(), -3);
  });

  it('maxElevationWithin matches a one-second scan, even when a lower pass has the best coarse sample', () => {
    const windowMinutes = 600;
    let bruteForceDeg = -90;
    for (let s = 0; s <= windowMinutes * 60; s++)
      bruteForceDeg = Math.max(bruteForceDeg, elevationDeg(MADRID, t0 + s * 1000));
    const best = maxElevationWithin(tle, MADRID, ISS_2019_TIME, windowMinutes);
    expect(best?.maxElevationDeg).toBeGreaterThanOrEqual(bruteForceDeg - 0.01);
    expect(best?.maxElevationDeg).toBeLessThan(bruteForceDeg + 0.05);
    if (!best) return;
    expect(elevationDeg(MADRID, best.at.getTime())).toBeCloseTo(best.maxElevationDeg, 6);
    // The highest pass in this window peaks near 80.7 deg; another peaks near 76.8 deg.
    expect(best.maxElevationDeg).toBeGreaterThan(80);
  });
});
