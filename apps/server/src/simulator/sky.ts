// What the simulated stations can hear: satellites on their TLE orbits and balloons drifting
// around the globe at a fixed latitude band, seen from a station as elevation and range.
import type { ModemConf } from '@tinygs/contracts';
import { EARTH_RADIUS_KM, lookAngles, subSatellitePoint, type Tle } from '@tinygs/orbit';

export interface BalloonTrack {
  latDeg: number;
  /** eastward drift */
  lngDegPerHour: number;
  lngOffsetDeg: number;
  altKm: number;
}

export interface SimSatellite {
  name: string;
  norad: number;
  status: string;
  /** the default configuration: what the satellite transmits with */
  config: ModemConf;
  tle: Tle | null;
  balloon: BalloonTrack | null;
  /** transmit power the demo frames report, mW */
  txPowerMw: number;
}

export interface SimLook {
  elevationDeg: number;
  rangeKm: number;
  rangeRateKmPerS: number;
}

/** Statuses whose satellites are transmitting (Future and Inactive ones are silent). */
export const TRANSMITTING_STATUSES = new Set([
  'Supported',
  'SupportedSL',
  'Surveillance',
  'Experimental',
  'Balloon',
]);

function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A balloon's drift, derived from its name so every run and every process agrees. */
export function balloonTrack(name: string): BalloonTrack {
  const h = hashOf(name);
  return {
    latDeg: -45 + (h % 90),
    lngDegPerHour: 2 + ((h >>> 8) % 6),
    lngOffsetDeg: (h >>> 12) % 360,
    altKm: 11 + ((h >>> 20) % 4),
  };
}

export function txPowerFor(name: string): number {
  const levels = [100, 250, 500, 1000, 2000, 3000];
  return levels[hashOf(name) % levels.length] ?? 500;
}

export function positionOf(
  sat: SimSatellite,
  atMs: number,
): { lat: number; lng: number; altKm: number } | null {
  if (sat.tle) {
    const p = subSatellitePoint(sat.tle, atMs);
    return p ? { lat: p.lat, lng: p.lng, altKm: p.alt } : null;
  }
  if (sat.balloon) {
    const b = sat.balloon;
    const lng =
      ((((b.lngOffsetDeg + (b.lngDegPerHour * atMs) / 3_600_000) % 360) + 540) % 360) - 180;
    return { lat: b.latDeg, lng, altKm: b.altKm };
  }
  return null;
}

const RAD = Math.PI / 180;

/** Spherical-Earth look angles towards a point at altKm above the ground (balloons). */
function lookAtPoint(
  station: readonly [number, number],
  point: { lat: number; lng: number; altKm: number },
): SimLook {
  const [lat1, lng1] = [station[0] * RAD, station[1] * RAD];
  const [lat2, lng2] = [point.lat * RAD, point.lng * RAD];
  const cosTheta =
    Math.sin(lat1) * Math.sin(lat2) + Math.cos(lat1) * Math.cos(lat2) * Math.cos(lng2 - lng1);
  const theta = Math.acos(Math.max(-1, Math.min(1, cosTheta)));
  const r = EARTH_RADIUS_KM;
  const rs = r + point.altKm;
  const rangeKm = Math.sqrt(r * r + rs * rs - 2 * r * rs * Math.cos(theta));
  const elevationDeg = Math.atan2(Math.cos(theta) - r / rs, Math.sin(theta)) / RAD;
  return { elevationDeg, rangeKm, rangeRateKmPerS: 0 };
}

export function lookFrom(
  sat: SimSatellite,
  station: readonly [number, number],
  atMs: number,
): SimLook | null {
  if (sat.tle) {
    const look = lookAngles(sat.tle, atMs, { latDeg: station[0], lngDeg: station[1], altKm: 0 });
    return look
      ? {
          elevationDeg: look.elevationDeg,
          rangeKm: look.rangeKm,
          rangeRateKmPerS: look.rangeRateKmPerS,
        }
      : null;
  }
  const point = positionOf(sat, atMs);
  return point ? lookAtPoint(station, point) : null;
}
