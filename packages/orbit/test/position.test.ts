import { describe, expect, it } from 'vitest';
import {
  footprintRadiusKm,
  groundDistanceKm,
  makeTleLines,
  parseTle,
  subSatellitePoint,
  sunlight,
} from '../src/index';
import { ISS_2019, ISS_2019_TIME } from './fixtures';

const R_KM = 6378.137;
const DEG = 180 / Math.PI;

describe('subSatellitePoint', () => {
  it('puts an ISS element set at ISS altitude and never beyond its inclination', () => {
    const tle = parseTle(ISS_2019);
    const inclinationDeg = 51.6433;
    const now = subSatellitePoint(tle, ISS_2019_TIME);
    expect(now?.alt).toBeGreaterThan(400);
    expect(now?.alt).toBeLessThan(430);
    let highestLatDeg = 0;
    // One orbit is ~93 minutes; sample two. The ellipsoid is 21 km lower at the poles than at the
    // equator, so the height above it swings more than the orbit radius does.
    for (let minute = 0; minute < 186; minute++) {
      const point = subSatellitePoint(tle, ISS_2019_TIME.getTime() + minute * 60_000);
      expect(point).not.toBeNull();
      if (!point) return;
      expect(point.alt).toBeGreaterThan(395);
      expect(point.alt).toBeLessThan(440);
      expect(point.lng).toBeGreaterThanOrEqual(-180);
      expect(point.lng).toBeLessThan(180);
      highestLatDeg = Math.max(highestLatDeg, Math.abs(point.lat));
    }
    // Geodetic latitude exceeds the geocentric one (bounded by the inclination) by at most ~0.2 deg.
    expect(highestLatDeg).toBeLessThan(inclinationDeg + 0.25);
    expect(highestLatDeg).toBeGreaterThan(inclinationDeg - 1);
  });

  it('returns null once an element set has decayed', () => {
    const epoch = new Date('2024-03-20T00:00:00Z');
    const reentering = parseTle(
      makeTleLines({
        name: 'REENTRY',
        noradId: 90002,
        epoch,
        inclinationDeg: 51.6,
        raanDeg: 0,
        eccentricity: 0.0005,
        argPerigeeDeg: 0,
        meanAnomalyDeg: 0,
        meanMotionRevPerDay: 16.2,
        bstar: 0.002,
        meanMotionDotOver2RevPerDay2: 0.05,
      }),
    );
    expect(subSatellitePoint(reentering, epoch)).not.toBeNull();
    expect(subSatellitePoint(reentering, epoch.getTime() + 30 * 86_400_000)).toBeNull();
    expect(sunlight(reentering, epoch.getTime() + 30 * 86_400_000)).toBeNull();
  });
});

describe('footprintRadiusKm', () => {
  it('is the ground range to the 0-degree horizon circle', () => {
    // R * acos(R / (R + h)) for h = 500 km: 6378.137 * acos(0.92730...) = 2446.95 km.
    expect(footprintRadiusKm(500)).toBeCloseTo(2446.95, 1);
    expect(footprintRadiusKm(500)).toBeCloseTo(R_KM * Math.acos(R_KM / (R_KM + 500)), 9);
    // Geostationary altitude sees 81.3 degrees of arc: about 9050 km.
    expect(footprintRadiusKm(35786)).toBeCloseTo(R_KM * Math.acos(R_KM / 42164.137), 6);
    expect(footprintRadiusKm(0)).toBe(0);
    expect(footprintRadiusKm(-5)).toBe(0);
  });
});

describe('groundDistanceKm', () => {
  it('measures great-circle arcs on the 6378.137 km sphere', () => {
    expect(groundDistanceKm([0, 0], [90, 0])).toBeCloseTo((Math.PI / 2) * R_KM, 6);
    expect(groundDistanceKm([0, 0], [0, 180])).toBeCloseTo(Math.PI * R_KM, 6);
    expect(groundDistanceKm([10, 179.5], [10, -179.5])).toBeCloseTo(
      R_KM * Math.cos(10 / DEG) * (1 / DEG),
      0,
    );
    // Madrid - Munich is about 1490 km by air.
    const madridMunich = groundDistanceKm([40.4168, -3.7038], [48.1467, 11.6083]);
    expect(madridMunich).toBeGreaterThan(1470);
    expect(madridMunich).toBeLessThan(1510);
    expect(groundDistanceKm([12, 34], [12, 34])).toBe(0);
  });
});

describe('sunlight', () => {
  // At the March 2024 equinox (2024-03-20 03:06 UTC) the Sun is at right ascension 0 on the
  // equator. An equatorial circular orbit with mean anomaly 0 (RAAN and perigee 0) sits between
  // Earth and Sun (local noon); mean anomaly 180 puts it behind the Earth (local midnight).
  const equinox = new Date('2024-03-20T03:06:00Z');
  const equatorialAt = (meanAnomalyDeg: number) =>
    parseTle(
      makeTleLines({
        name: `EQ-${meanAnomalyDeg}`,
        noradId: 90001,
        epoch: equinox,
        inclinationDeg: 0,
        raanDeg: 0,
        eccentricity: 0,
        argPerigeeDeg: 0,
        meanAnomalyDeg,
        meanMotionRevPerDay: 15.2,
      }),
    );

  it('is lit with the Sun overhead above the sub-solar point', () => {
    const tle = equatorialAt(0);
    const point = subSatellitePoint(tle, equinox);
    expect(point).not.toBeNull();
    if (!point) return;
    // Local noon at 03:06 UTC with the equation of time at -7.6 min: 15 * (12 - 3.1 + 0.127) = 135.4 E.
    expect(point.lng).toBeCloseTo(135.4, 0);
    const limbDipDeg = Math.acos(R_KM / (R_KM + point.alt)) * DEG;
    const light = sunlight(tle, equinox);
    expect(light?.sunLit).toBe(true);
    // Sun at the zenith: 90 deg above the horizontal, plus the limb dip below it.
    expect(light?.eclipseDepthDeg).toBeCloseTo(-(90 + limbDipDeg), 0);
  });

  it('is in shadow above the anti-solar point, by 90 deg minus the limb dip', () => {
    const tle = equatorialAt(180);
    const point = subSatellitePoint(tle, equinox);
    if (!point) throw new Error('propagation failed');
    expect(point.lng).toBeCloseTo(135.4 - 180, 0);
    const limbDipDeg = Math.acos(R_KM / (R_KM + point.alt)) * DEG;
    const shade = sunlight(tle, equinox);
    expect(shade?.sunLit).toBe(false);
    expect(shade?.eclipseDepthDeg).toBeCloseTo(90 - limbDipDeg, 0);
  });

  it('crosses from shadow to light exactly where the eclipse depth changes sign', () => {
    const tle = equatorialAt(180);
    let previous = sunlight(tle, equinox);
    let changes = 0;
    // One orbit of ~95 minutes in 20-second steps: one sunrise and one sunset.
    for (let s = 20; s <= 95 * 60; s += 20) {
      const current = sunlight(tle, equinox.getTime() + s * 1000);
      if (!current || !previous) throw new Error('propagation failed');
      expect(current.sunLit).toBe(current.eclipseDepthDeg <= 0);
      if (current.sunLit !== previous.sunLit) changes++;
      previous = current;
    }
    expect(changes).toBe(2);
  });
});
