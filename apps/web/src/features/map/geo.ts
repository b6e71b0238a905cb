// Spherical helpers for what the maps draw (bearings and rings around a point). The orbit maths
// proper lives in @tinygs/orbit; these only place vertices for Leaflet.
import { EARTH_RADIUS_KM } from '@tinygs/contracts';
import type { LatLng } from './types';

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** Longitude folded into -180..180 (Leaflet reports clicks on world copies as e.g. 200). */
export function normalizeLng(lngDeg: number): number {
  const wrapped = (((lngDeg + 180) % 360) + 360) % 360 - 180;
  return wrapped === -180 && lngDeg > 0 ? 180 : wrapped;
}

/** Initial great-circle bearing from `from` to `to`, 0..360 clockwise from north. */
export function initialBearingDeg(from: LatLng, to: LatLng): number {
  const phi1 = from.lat * RAD;
  const phi2 = to.lat * RAD;
  const dLambda = (to.lng - from.lng) * RAD;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  return (Math.atan2(y, x) * DEG + 360) % 360;
}

/** Point reached from `from` along a great circle; longitude left unwrapped for continuous lines. */
export function destinationPoint(from: LatLng, bearingDeg: number, distanceKm: number): LatLng {
  const delta = distanceKm / EARTH_RADIUS_KM;
  const theta = bearingDeg * RAD;
  const phi1 = from.lat * RAD;
  const lambda1 = from.lng * RAD;
  const sinPhi2 = Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta);
  const phi2 = Math.asin(Math.max(-1, Math.min(1, sinPhi2)));
  const lambda2 =
    lambda1 +
    Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * sinPhi2);
  return { lat: phi2 * DEG, lng: lambda2 * DEG };
}

/** Ring of `steps` vertices at `radiusKm` around `center`, closed (last vertex = first). */
export function ringAround(center: LatLng, radiusKm: number, steps = 72): LatLng[] {
  const ring: LatLng[] = [];
  for (let i = 0; i <= steps; i += 1) ring.push(destinationPoint(center, (360 * i) / steps, radiusKm));
  return ring;
}
