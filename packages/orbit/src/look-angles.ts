import {
  DEG_PER_RAD,
  EARTH_ROTATION_RAD_PER_S,
  RAD_PER_DEG,
  SPEED_OF_LIGHT_KM_PER_S,
  WGS84_ECCENTRICITY_SQUARED,
  WGS84_EQUATORIAL_RADIUS_KM,
} from './constants';
import { newInertialState, propagateInto, type InertialState } from './propagate';
import { toEpochMs, type TimeInput } from './time';
import type { Tle } from './tle';

/** A ground station: geodetic latitude/longitude in degrees, height above the WGS-84 ellipsoid in km. */
export interface Observer {
  latDeg: number;
  lngDeg: number;
  altKm: number;
}

export interface LookAngles {
  /** Degrees clockwise from true north, [0, 360). */
  azimuthDeg: number;
  /** Degrees above the observer's horizontal plane (geodetic), [-90, 90]. */
  elevationDeg: number;
  rangeKm: number;
  /** Rate of change of range: negative while the satellite approaches. */
  rangeRateKmPerS: number;
}

/** Observer position and local axes, computed once per observer for repeated look-angle work. */
export interface ObserverFrame {
  sinLat: number;
  cosLat: number;
  sinLng: number;
  cosLng: number;
  xKm: number;
  yKm: number;
  zKm: number;
}

export function observerFrame(observer: Observer): ObserverFrame {
  const lat = observer.latDeg * RAD_PER_DEG;
  const lng = observer.lngDeg * RAD_PER_DEG;
  const sinLat = Math.sin(lat);
  const cosLat = Math.cos(lat);
  const sinLng = Math.sin(lng);
  const cosLng = Math.cos(lng);
  const e2 = WGS84_ECCENTRICITY_SQUARED;
  const primeVerticalKm = WGS84_EQUATORIAL_RADIUS_KM / Math.sqrt(1 - e2 * sinLat * sinLat);
  return {
    sinLat,
    cosLat,
    sinLng,
    cosLng,
    xKm: (primeVerticalKm + observer.altKm) * cosLat * cosLng,
    yKm: (primeVerticalKm + observer.altKm) * cosLat * sinLng,
    zKm: (primeVerticalKm * (1 - e2) + observer.altKm) * sinLat,
  };
}

/** Writes the look angles of a propagated state as seen from `frame` into `out`. */
export function lookAnglesInto(
  state: InertialState,
  frame: ObserverFrame,
  out: LookAngles,
): LookAngles {
  const cosG = Math.cos(state.gmstRad);
  const sinG = Math.sin(state.gmstRad);
  // Rotate into the Earth-fixed frame; the velocity also loses the frame's rotation (omega x r).
  const x = state.xKm * cosG + state.yKm * sinG;
  const y = -state.xKm * sinG + state.yKm * cosG;
  const z = state.zKm;
  const vx = state.vxKmPerS * cosG + state.vyKmPerS * sinG + EARTH_ROTATION_RAD_PER_S * y;
  const vy = -state.vxKmPerS * sinG + state.vyKmPerS * cosG - EARTH_ROTATION_RAD_PER_S * x;
  const vz = state.vzKmPerS;

  const rx = x - frame.xKm;
  const ry = y - frame.yKm;
  const rz = z - frame.zKm;
  const { sinLat, cosLat, sinLng, cosLng } = frame;
  const north = -sinLat * cosLng * rx - sinLat * sinLng * ry + cosLat * rz;
  const east = -sinLng * rx + cosLng * ry;
  const up = cosLat * cosLng * rx + cosLat * sinLng * ry + sinLat * rz;
  const rangeKm = Math.sqrt(rx * rx + ry * ry + rz * rz);

  let azimuthDeg = Math.atan2(east, north) * DEG_PER_RAD;
  if (azimuthDeg < 0) azimuthDeg += 360;
  out.azimuthDeg = azimuthDeg;
  out.elevationDeg = Math.asin(Math.max(-1, Math.min(1, up / rangeKm))) * DEG_PER_RAD;
  out.rangeKm = rangeKm;
  out.rangeRateKmPerS = (rx * vx + ry * vy + rz * vz) / rangeKm;
  return out;
}

const state = newInertialState();

/** Azimuth, elevation, range and range rate of a satellite from an observer. Null when propagation fails. */
export function lookAngles(tle: Tle, time: TimeInput, observer: Observer): LookAngles | null {
  if (!propagateInto(tle, toEpochMs(time), state)) return null;
  return lookAnglesInto(state, observerFrame(observer), {
    azimuthDeg: 0,
    elevationDeg: 0,
    rangeKm: 0,
    rangeRateKmPerS: 0,
  });
}

/**
 * Doppler shift (Hz) of a carrier of `freqMHz` for a given range rate, first order in v/c:
 * -f * rangeRate / c. Approaching (negative range rate) gives a positive shift.
 */
export function dopplerShiftHz(freqMHz: number, rangeRateKmPerS: number): number {
  return (-freqMHz * 1e6 * rangeRateKmPerS) / SPEED_OF_LIGHT_KM_PER_S;
}
