// Scene coordinates: Earth radius 1, Earth-fixed, Y towards the north pole, +X towards (0 N, 0 E)
// and -Z towards (0 N, 90 E). This matches how three's SphereGeometry lays out an
// equirectangular texture whose left edge is longitude -180.
import { EARTH_RADIUS_KM, subSatellitePoint, type Tle } from '@tinygs/orbit';
import { Vector3 } from 'three';

const RAD = Math.PI / 180;
/** Sidereal rotation of the Earth, degrees per millisecond. */
const EARTH_ROTATION_DEG_PER_MS = 360 / 86_164_090.5;

export function geodeticToScene(
  latDeg: number,
  lngDeg: number,
  altKm = 0,
  out = new Vector3(),
): Vector3 {
  const r = 1 + altKm / EARTH_RADIUS_KM;
  const lat = latDeg * RAD;
  const lng = lngDeg * RAD;
  return out.set(
    r * Math.cos(lat) * Math.cos(lng),
    r * Math.sin(lat),
    -r * Math.cos(lat) * Math.sin(lng),
  );
}

/** Inverse of geodeticToScene: what a point of the scene stands for on and above the Earth. */
export function sceneToGeodetic(v: Vector3): { lat: number; lng: number; altKm: number } {
  const r = v.length();
  return {
    lat: Math.asin(v.y / r) / RAD,
    lng: Math.atan2(-v.z, v.x) / RAD,
    altKm: (r - 1) * EARTH_RADIUS_KM,
  };
}

/** Orbital period from the mean motion of the element set (rad/min). */
export function orbitalPeriodMinutes(tle: Tle): number {
  return (2 * Math.PI) / tle.satrec.no;
}

export interface OrbitSnapshot {
  satellite: Vector3;
  /** One revolution centred on now. */
  ring: Vector3[];
}

/**
 * The ring is drawn in the Earth frame of this instant: each sample's longitude is turned by the
 * Earth's rotation between now and its time, so one revolution closes into an ellipse instead of
 * the drifting ground-relative spiral.
 */
export function orbitSnapshot(tle: Tle, nowMs: number, samples = 180): OrbitSnapshot | null {
  const now = subSatellitePoint(tle, nowMs);
  if (!now) return null;
  const satellite = geodeticToScene(now.lat, now.lng, now.alt);
  const periodMs = orbitalPeriodMinutes(tle) * 60_000;
  const ring: Vector3[] = [];
  for (let i = 0; i <= samples; i += 1) {
    const t = nowMs + periodMs * (i / samples - 0.5);
    const p = subSatellitePoint(tle, t);
    if (p)
      ring.push(geodeticToScene(p.lat, p.lng + (t - nowMs) * EARTH_ROTATION_DEG_PER_MS, p.alt));
  }
  return { satellite, ring };
}
