import { checkForDecay, gstime, sgp4 } from 'satellite.js';
import { DEG_PER_RAD, WGS84_ECCENTRICITY_SQUARED, WGS84_EQUATORIAL_RADIUS_KM } from './constants';
import { julianDateOfEpochMs, toEpochMs, type TimeInput } from './time';
import type { Tle } from './tle';

/** Satellite state in the SGP4 inertial frame (TEME) plus the Earth's rotation angle at that time. */
export interface InertialState {
  xKm: number;
  yKm: number;
  zKm: number;
  vxKmPerS: number;
  vyKmPerS: number;
  vzKmPerS: number;
  /** Greenwich mean sidereal time: rotates TEME into the Earth-fixed frame. */
  gmstRad: number;
  julianDate: number;
}

export function newInertialState(): InertialState {
  return {
    xKm: 0,
    yKm: 0,
    zKm: 0,
    vxKmPerS: 0,
    vyKmPerS: 0,
    vzKmPerS: 0,
    gmstRad: 0,
    julianDate: 0,
  };
}

/**
 * Propagates with SGP4 into `out` (reused so hot loops allocate nothing of ours). Returns false when
 * SGP4 reports an error, the orbit has decayed (including the community check for element sets of
 * objects that decayed long ago) or the result is not finite.
 */
export function propagateInto(tle: Tle, epochMs: number, out: InertialState): boolean {
  const { satrec } = tle;
  const julianDate = julianDateOfEpochMs(epochMs);
  const result = sgp4(satrec, (julianDate - satrec.jdsatepoch) * 1440);
  if (!result || checkForDecay(satrec)) return false;
  const { position, velocity } = result;
  if (
    !Number.isFinite(position.x + position.y + position.z + velocity.x + velocity.y + velocity.z)
  ) {
    return false;
  }
  out.xKm = position.x;
  out.yKm = position.y;
  out.zKm = position.z;
  out.vxKmPerS = velocity.x;
  out.vyKmPerS = velocity.y;
  out.vzKmPerS = velocity.z;
  out.gmstRad = gstime(julianDate);
  out.julianDate = julianDate;
  return true;
}

/** Geodetic point on the WGS-84 ellipsoid: degrees and km above the ellipsoid. */
export interface GeodeticPoint {
  lat: number;
  lng: number;
  alt: number;
}

/** Writes the geodetic sub-point of an inertial position into `out`; longitude in [-180, 180). */
export function geodeticInto(state: InertialState, out: GeodeticPoint): GeodeticPoint {
  const { xKm: x, yKm: y, zKm: z, gmstRad } = state;
  const a = WGS84_EQUATORIAL_RADIUS_KM;
  const e2 = WGS84_ECCENTRICITY_SQUARED;
  const p = Math.sqrt(x * x + y * y);
  let lng = Math.atan2(y, x) - gmstRad;
  lng -= 2 * Math.PI * Math.floor((lng + Math.PI) / (2 * Math.PI));
  let lat = Math.atan2(z, p * (1 - e2));
  let sinLat = Math.sin(lat);
  let primeVerticalKm = a;
  // Converges to well below a millimetre in 3-4 rounds for any orbit.
  for (let i = 0; i < 8; i++) {
    primeVerticalKm = a / Math.sqrt(1 - e2 * sinLat * sinLat);
    const next = Math.atan2(z + e2 * primeVerticalKm * sinLat, p);
    const done = Math.abs(next - lat) < 1e-12;
    lat = next;
    sinLat = Math.sin(lat);
    if (done) break;
  }
  primeVerticalKm = a / Math.sqrt(1 - e2 * sinLat * sinLat);
  // This form of the height stays accurate near the poles, where p / cos(lat) does not.
  out.alt = p * Math.cos(lat) + z * sinLat - (a * a) / primeVerticalKm;
  out.lat = lat * DEG_PER_RAD;
  out.lng = lng * DEG_PER_RAD;
  return out;
}

const scratchState = newInertialState();

/**
 * Sub-satellite point at a time: geodetic latitude and longitude (degrees, longitude in
 * [-180, 180)) and altitude above the WGS-84 ellipsoid (km). Null when propagation fails (decayed
 * or invalid element set).
 */
export function subSatellitePoint(tle: Tle, time: TimeInput): GeodeticPoint | null {
  if (!propagateInto(tle, toEpochMs(time), scratchState)) return null;
  return geodeticInto(scratchState, { lat: 0, lng: 0, alt: 0 });
}
