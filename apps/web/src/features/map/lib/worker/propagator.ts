// SGP4 work of the world map. Runs inside the positions worker; the same class runs on the main
// thread where workers are unavailable (tests, very old browsers).
import { ORBIT_PATH_MINUTES, ORBIT_PATH_STEP_MINUTES } from '@tinygs/contracts';
import {
  footprintCircle,
  footprintRadiusKm,
  orbitPath,
  parseTle,
  subSatellitePoint,
  type LatLng as OrbitLatLng,
  type Tle,
} from '@tinygs/orbit';
import type { TleRecord } from '../tleText';

export interface TickRequest {
  timeMs: number;
  /** index of the focused satellite, or -1 */
  focus: number;
}

export interface FocusResult {
  index: number;
  /** km above the ellipsoid */
  altKm: number;
  lat: number;
  lng: number;
  footprintRadiusKm: number;
  /** ORBIT_PATH_MINUTES ahead, already split at the antimeridian */
  path: OrbitLatLng[][];
  /** footprint polygon rings, already cut at the antimeridian */
  footprint: OrbitLatLng[][];
}

export interface TickResult {
  timeMs: number;
  /** lat, lng, altKm per satellite in load order; NaN where there is no position */
  coords: Float64Array;
  focus: FocusResult | null;
}

export class Propagator {
  private tles: (Tle | null)[] = [];

  /** One entry per map satellite, in the map's order; null where no TLE is known. */
  load(records: readonly (TleRecord | null)[]): void {
    this.tles = records.map((r) => {
      if (!r) return null;
      try {
        return parseTle([r.name, r.line1, r.line2]);
      } catch {
        return null;
      }
    });
  }

  tick({ timeMs, focus }: TickRequest): TickResult {
    const coords = new Float64Array(this.tles.length * 3).fill(Number.NaN);
    this.tles.forEach((tle, i) => {
      const p = tle ? subSatellitePoint(tle, timeMs) : null;
      if (!p) return;
      coords[i * 3] = p.lat;
      coords[i * 3 + 1] = p.lng;
      coords[i * 3 + 2] = p.alt;
    });
    return { timeMs, coords, focus: this.focusAt(focus, timeMs, coords) };
  }

  private focusAt(index: number, timeMs: number, coords: Float64Array): FocusResult | null {
    const tle = this.tles[index];
    const lat = coords[index * 3];
    const lng = coords[index * 3 + 1];
    const altKm = coords[index * 3 + 2];
    if (!tle || lat === undefined || lng === undefined || altKm === undefined || Number.isNaN(lat))
      return null;
    const radiusKm = footprintRadiusKm(altKm);
    return {
      index,
      lat,
      lng,
      altKm,
      footprintRadiusKm: radiusKm,
      path: orbitPath(tle, timeMs, ORBIT_PATH_MINUTES, ORBIT_PATH_STEP_MINUTES),
      footprint: footprintCircle(lat, lng, radiusKm),
    };
  }
}
