// Spherical helpers for what the maps draw (bearings, rays, great-circle lines). Orbit maths and
// circles live in @tinygs/orbit; these only place vertices for Leaflet.
import { EARTH_RADIUS_KM } from '@tinygs/contracts';
import {
  groundDistanceKm,
  normalizeLngDeg,
  splitAtAntimeridian,
  type LatLng as MapPoint,
} from '@tinygs/orbit';
import type { LatLng } from './types';

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

export type { MapPoint };

/** Initial great-circle bearing from `from` to `to`, 0..360 clockwise from north. */
export function initialBearingDeg(from: LatLng, to: LatLng): number {
  const phi1 = from.lat * RAD;
  const phi2 = to.lat * RAD;
  const dLambda = (to.lng - from.lng) * RAD;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  return (Math.atan2(y, x) * DEG + 360) % 360;
}

/** Point reached from `from` along a great circle; longitude left unwrapped for continuous shapes. */
export function destinationPoint(from: LatLng, bearingDeg: number, distanceKm: number): LatLng {
  const delta = distanceKm / EARTH_RADIUS_KM;
  const theta = bearingDeg * RAD;
  const phi1 = from.lat * RAD;
  const sinPhi2 =
    Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta);
  const phi2 = Math.asin(Math.max(-1, Math.min(1, sinPhi2)));
  const dLambda = Math.atan2(
    Math.sin(theta) * Math.sin(delta) * Math.cos(phi1),
    Math.cos(delta) - Math.sin(phi1) * sinPhi2,
  );
  return { lat: phi2 * DEG, lng: from.lng + dLambda * DEG };
}

/** A ray of `lengthKm` from `from`, sampled every `stepKm`, as map polylines split at +-180. */
export function rayLines(
  from: LatLng,
  bearingDeg: number,
  lengthKm: number,
  stepKm = 100,
): MapPoint[][] {
  const points: [number, number][] = [];
  const steps = Math.max(1, Math.ceil(lengthKm / stepKm));
  for (let i = 0; i <= steps; i += 1) {
    const p = destinationPoint(from, bearingDeg, (lengthKm * i) / steps);
    points.push([p.lat, normalizeLngDeg(p.lng)]);
  }
  return splitAtAntimeridian(points);
}

/** Great-circle line between two points as map polylines split at +-180. */
export function greatCircleLines(a: LatLng, b: LatLng, stepKm = 100): MapPoint[][] {
  const distanceKm = groundDistanceKm([a.lat, a.lng], [b.lat, b.lng]);
  if (distanceKm === 0) return [[[a.lat, normalizeLngDeg(a.lng)]]];
  return rayLines(a, initialBearingDeg(a, b), distanceKm, stepKm);
}

/**
 * Leaflet draws vector layers on one world copy only. Small maps (packet, station) that may sit on
 * the antimeridian draw their layers at these longitude offsets too, so what is split at +-180
 * continues seamlessly on the neighbouring copy.
 */
export const WORLD_COPY_OFFSETS_DEG = [-360, 0, 360] as const;

export function shiftPoint([lat, lng]: readonly [number, number], dLng: number): MapPoint {
  return [lat, lng + dLng];
}

export function shiftLines(
  lines: readonly (readonly (readonly [number, number])[])[],
  dLng: number,
): MapPoint[][] {
  return lines.map((line) => line.map((p) => shiftPoint(p, dLng)));
}

/** `lng` moved by whole turns to lie within 180 deg of `referenceLng` (for fitting the view). */
export function lngNear(lng: number, referenceLng: number): number {
  return referenceLng + normalizeLngDeg(lng - referenceLng);
}

/**
 * Outline of polygon rings cut at the map edge (as footprintCircle returns them) without the cut
 * itself: segments running along +-180 deg or a pole edge are left out, so a circle split by the
 * antimeridian is not drawn with a vertical bar through it.
 */
export function ringOutlines(
  rings: readonly (readonly (readonly [number, number])[])[],
): MapPoint[][] {
  const onEdge = (a: readonly [number, number], b: readonly [number, number]) =>
    (Math.abs(a[1]) === 180 && a[1] === b[1]) || (Math.abs(a[0]) === 90 && a[0] === b[0]);
  const lines: MapPoint[][] = [];
  for (const ring of rings) {
    const first = ring[0];
    if (!first) continue;
    const closed = [...ring, first];
    let current: MapPoint[] = [[first[0], first[1]]];
    for (let i = 1; i < closed.length; i += 1) {
      const a = closed[i - 1] as readonly [number, number];
      const b = closed[i] as readonly [number, number];
      if (onEdge(a, b)) {
        if (current.length > 1) lines.push(current);
        current = [];
      }
      current.push([b[0], b[1]]);
    }
    if (current.length > 1) lines.push(current);
  }
  return lines;
}
