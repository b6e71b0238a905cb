import { sunPos } from 'satellite.js';
import { DEG_PER_RAD, EARTH_RADIUS_KM, KM_PER_AU } from './constants';
import { newInertialState, propagateInto, type InertialState } from './propagate';
import { toEpochMs, type TimeInput } from './time';
import type { Tle } from './tle';

export interface Sunlight {
  /** True when the Sun's centre is above the Earth's limb as seen from the satellite. */
  sunLit: boolean;
  /**
   * How far (degrees) the Sun's centre is below the satellite's horizon, the horizon being the
   * Earth's limb: (depression angle of the Sun below the satellite's local horizontal) minus (dip
   * of the Earth's limb below that horizontal, acos(R / r)). Positive = in shadow, 0 or negative =
   * sunlit (its magnitude is then how high above the limb the Sun stands).
   */
  eclipseDepthDeg: number;
}

const state = newInertialState();

/**
 * Sunlight on a satellite. Sun position: the low-precision Astronomical Almanac formula (about
 * 0.01 degrees, satellite.js `sunPos`). Shadow: spherical Earth of radius 6378.137 km and the Sun as
 * a point, so "in shadow" means the line from the satellite to the Sun's centre passes through the
 * Earth. With the Sun at 1 AU this amounts to the cylindrical shadow model; penumbra is not distinguished
 * (it lasts a few seconds for a LEO satellite). Null when propagation fails.
 */
export function sunlight(tle: Tle, time: TimeInput): Sunlight | null {
  if (!propagateInto(tle, toEpochMs(time), state)) return null;
  return sunlightOfState(state);
}

/** Sunlight (see `sunlight`) of an already propagated state. */
export function sunlightOfState(state: InertialState): Sunlight {
  const { rsun } = sunPos(state.julianDate);
  const rx = state.xKm;
  const ry = state.yKm;
  const rz = state.zKm;
  const sx = rsun.x * KM_PER_AU - rx;
  const sy = rsun.y * KM_PER_AU - ry;
  const sz = rsun.z * KM_PER_AU - rz;
  const radiusKm = Math.sqrt(rx * rx + ry * ry + rz * rz);
  const sunDistanceKm = Math.sqrt(sx * sx + sy * sy + sz * sz);
  const cosZenith = (rx * sx + ry * sy + rz * sz) / (radiusKm * sunDistanceKm);
  // Angle between the local vertical (up) and the Sun; the Sun is 90 degrees from up on the horizontal.
  const sunFromZenithDeg = Math.acos(Math.max(-1, Math.min(1, cosZenith))) * DEG_PER_RAD;
  const limbDipDeg = Math.acos(Math.min(1, EARTH_RADIUS_KM / radiusKm)) * DEG_PER_RAD;
  const eclipseDepthDeg = sunFromZenithDeg - 90 - limbDipDeg;
  return { sunLit: eclipseDepthDeg <= 0, eclipseDepthDeg };
}
