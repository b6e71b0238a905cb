import { normalizeLngDeg, type LatLng } from './antimeridian';
import { DEG_PER_RAD, EARTH_RADIUS_KM, RAD_PER_DEG } from './constants';

/**
 * Ground-range radius (km) of the area that sees a satellite at altKm above 0 degrees elevation:
 * the arc from the sub-satellite point to the horizon circle, R * acos(R / (R + h)),
 * R = 6378.137 km (spherical Earth).
 */
export function footprintRadiusKm(altKm: number): number {
  if (!(altKm > 0)) return 0;
  return EARTH_RADIUS_KM * Math.acos(EARTH_RADIUS_KM / (EARTH_RADIUS_KM + altKm));
}

/**
 * Great-circle distance (km) between two [lat, lng] points in degrees, by the haversine formula on
 * a sphere of radius 6378.137 km (the same radius as the footprint, so "station inside footprint"
 * comparisons agree).
 */
export function groundDistanceKm(
  a: readonly [number, number],
  b: readonly [number, number],
): number {
  const lat1 = a[0] * RAD_PER_DEG;
  const lat2 = b[0] * RAD_PER_DEG;
  const sinHalfDLat = Math.sin((lat2 - lat1) / 2);
  const sinHalfDLng = Math.sin(((b[1] - a[1]) * RAD_PER_DEG) / 2);
  const h = sinHalfDLat * sinHalfDLat + Math.cos(lat1) * Math.cos(lat2) * sinHalfDLng * sinHalfDLng;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A circle of radiusKm around [latDeg, lngDeg] on the sphere (R = 6378.137 km) as map polygons:
 * rings of `points` vertices (not repeating the first vertex), longitudes in [-180, 180].
 * - A circle crossing the antimeridian is cut into two rings, each closed along the map edge.
 * - A circle enclosing a pole becomes one ring that runs along the circle from one map edge to the
 *   other and closes along that pole's latitude (+-90), which is how it looks on a cylindrical map.
 */
export function footprintCircle(
  latDeg: number,
  lngDeg: number,
  radiusKm: number,
  points = 90,
): LatLng[][] {
  const count = Math.max(3, Math.floor(points));
  const angularRadius = radiusKm / EARTH_RADIUS_KM;
  const centreLng = normalizeLngDeg(lngDeg);
  const lat1 = latDeg * RAD_PER_DEG;
  const sinLat1 = Math.sin(lat1);
  const cosLat1 = Math.cos(lat1);
  const sinRadius = Math.sin(angularRadius);
  const cosRadius = Math.cos(angularRadius);
  // Longitudes stay continuous around the centre here (no wrapping yet).
  const ring: LatLng[] = new Array<LatLng>(count);
  for (let i = 0; i < count; i++) {
    const bearing = (2 * Math.PI * i) / count;
    const sinLat2 = sinLat1 * cosRadius + cosLat1 * sinRadius * Math.cos(bearing);
    const lat2 = Math.asin(Math.max(-1, Math.min(1, sinLat2)));
    const dLng = Math.atan2(Math.sin(bearing) * sinRadius * cosLat1, cosRadius - sinLat1 * sinLat2);
    ring[i] = [lat2 * DEG_PER_RAD, centreLng + dLng * DEG_PER_RAD];
  }

  const angularRadiusDeg = angularRadius * DEG_PER_RAD;
  const enclosesNorthPole = 90 - latDeg < angularRadiusDeg;
  const enclosesSouthPole = 90 + latDeg < angularRadiusDeg;
  if (enclosesNorthPole !== enclosesSouthPole)
    return [polarRing(ring, enclosesNorthPole ? 90 : -90)];

  let minLng = Infinity;
  let maxLng = -Infinity;
  for (const [, lng] of ring) {
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
  }
  if (maxLng > 180) return [clipRing(ring, 180, true, 0), clipRing(ring, 180, false, -360)];
  if (minLng < -180) return [clipRing(ring, -180, false, 0), clipRing(ring, -180, true, 360)];
  return [ring];
}

/** Sutherland-Hodgman clip of a ring against the meridian edgeLng, then shifted by shiftLng. */
function clipRing(ring: LatLng[], edgeLng: number, keepWest: boolean, shiftLng: number): LatLng[] {
  const out: LatLng[] = [];
  const inside = (lng: number): boolean => (keepWest ? lng <= edgeLng : lng >= edgeLng);
  for (let i = 0; i < ring.length; i++) {
    const current = ring[i] as LatLng;
    const previous = ring[(i + ring.length - 1) % ring.length] as LatLng;
    const currentIn = inside(current[1]);
    if (currentIn !== inside(previous[1])) {
      const fraction = (edgeLng - previous[1]) / (current[1] - previous[1]);
      out.push([previous[0] + fraction * (current[0] - previous[0]), edgeLng + shiftLng]);
    }
    if (currentIn) out.push([current[0], current[1] + shiftLng]);
  }
  return out;
}

/**
 * A circle around a pole winds once through all longitudes. Cut it where it crosses the
 * antimeridian and close it along the map edges through the pole latitude.
 */
function polarRing(ring: LatLng[], poleLat: number): LatLng[] {
  const wrapped = ring.map(([lat, lng]): LatLng => [lat, normalizeLngDeg(lng)]);
  const n = wrapped.length;
  for (let k = 0; k < n; k++) {
    const a = wrapped[k] as LatLng;
    const b = wrapped[(k + 1) % n] as LatLng;
    const deltaLng = b[1] - a[1];
    if (Math.abs(deltaLng) <= 180) continue;
    // The sequence after the cut starts on the side of b and ends on the side of a.
    const startEdge = deltaLng < 0 ? -180 : 180;
    const unwrappedB = b[1] + (deltaLng < 0 ? 360 : -360);
    const fraction = (-startEdge - a[1]) / (unwrappedB - a[1]);
    const crossingLat = a[0] + fraction * (b[0] - a[0]);
    const out: LatLng[] = [[crossingLat, startEdge]];
    for (let i = 1; i <= n; i++) out.push(wrapped[(k + i) % n] as LatLng);
    // Along the pole in quarter steps, so that no edge spans more than 180 degrees of longitude.
    out.push([crossingLat, -startEdge]);
    for (const lng of [-startEdge, -startEdge / 2, 0, startEdge / 2, startEdge])
      out.push([poleLat, lng]);
    return out;
  }
  return wrapped;
}
