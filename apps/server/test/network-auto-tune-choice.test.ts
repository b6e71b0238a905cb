// Auto-tune's choice among the satellites of a station's band: a satellite whose element set is
// fresh wins over a higher pass computed from a stale set; among equals, the highest pass wins.
import { groundDistanceKm, makeTleLines, parseTle, subSatellitePoint } from '@tinygs/orbit';
import { describe, expect, it } from 'vitest';
import { chooseSatellite } from '../src/network/auto-tune';
import type { NetworkSatellite } from '../src/network/ingest/catalogue';

const DAY = 86_400_000;
const now = Date.now();

function satellite(name: string, norad: number, epochMs: number, raanDeg: number, ma: number) {
  const tle = parseTle(
    makeTleLines({
      name,
      noradId: norad,
      epoch: new Date(epochMs),
      inclinationDeg: 97.5,
      raanDeg,
      eccentricity: 0.001,
      argPerigeeDeg: 90,
      meanAnomalyDeg: ma,
      meanMotionRevPerDay: 15.2,
    }),
  );
  const sat: NetworkSatellite = {
    name,
    nameBytes: Buffer.from(name),
    displayName: name,
    norad,
    status: 'Supported',
    configurations: [{ mode: 'LoRa', freq: 436.7, sat: name, NORAD: norad }],
    tle,
  };
  return sat;
}

/** A satellite with a set of this epoch whose point now is within [minKm, maxKm] of `point`. */
function near(
  name: string,
  norad: number,
  epochMs: number,
  point: [number, number],
  minKm: number,
  maxKm: number,
) {
  for (let raan = 0; raan < 360; raan += 2) {
    for (let ma = 0; ma < 360; ma += 1) {
      const sat = satellite(name, norad, epochMs, raan, ma);
      const p = sat.tle && subSatellitePoint(sat.tle, now);
      const km = p ? groundDistanceKm(point, [p.lat, p.lng]) : -1;
      if (km >= minKm && km <= maxKm) return sat;
    }
  }
  throw new Error(`no orbit passes ${minKm}-${maxKm} km from the station`);
}

describe('auto-tune choice', () => {
  // Overhead now by a set 10 days old; 400-700 km away by a set an hour old.
  const stale = satellite('StaleSat', 90001, now - 10 * DAY, 40, 100);
  const overhead = subSatellitePoint(stale.tle!, now)!;
  const station = { lat: overhead.lat, lng: overhead.lng, band: 433 as const };
  const fresh = near('FreshSat', 90002, now - 3_600_000, [station.lat, station.lng], 400, 700);

  it('prefers the satellite with a fresh element set to a higher pass from a stale one', () => {
    const choice = chooseSatellite(station, [stale, fresh], now, 5);
    expect(choice?.satellite.name).toBe('FreshSat');
    const staleOnly = chooseSatellite(station, [stale], now, 5);
    expect(staleOnly?.maxElevationDeg).toBeGreaterThan(choice?.maxElevationDeg ?? 90);
  });

  it('takes the highest pass among sets equally fresh, and a stale one when no other rises', () => {
    const freshOverhead = near(
      'FreshOverhead',
      90003,
      now - 3_600_000,
      [station.lat, station.lng],
      0,
      60,
    );
    expect(chooseSatellite(station, [fresh, freshOverhead], now, 5)?.satellite.name).toBe(
      'FreshOverhead',
    );
    expect(chooseSatellite(station, [stale], now, 5)?.satellite.name).toBe('StaleSat');
  });
});
