// Natural Earth rings are spherical: Russia, Fiji and Antarctica jump from +180 to -180 inside a
// ring. Drawn on a flat map such a jump becomes a stripe across the whole world. Each ring is
// unwrapped to continuous longitudes, a ring around a pole is closed along the map edge at that
// pole, and a ring reaching past +-180 gets a copy shifted by 360 deg so both map edges are filled.

export type Position = readonly number[];

export function planarRings(ring: readonly Position[]): [number, number][][] {
  const unwrapped: [number, number][] = [];
  let offset = 0;
  let previous: number | undefined;
  let latSum = 0;
  for (const [lng = 0, lat = 0] of ring) {
    let x = lng + offset;
    if (previous !== undefined) {
      if (x - previous > 180) offset -= 360;
      else if (x - previous < -180) offset += 360;
      x = lng + offset;
    }
    unwrapped.push([x, lat]);
    previous = x;
    latSum += lat;
  }
  const first = unwrapped[0];
  const last = unwrapped[unwrapped.length - 1];
  if (!first || !last) return [];
  if (Math.abs(last[0] - first[0]) > 180) {
    const poleLat = latSum < 0 ? -90 : 90;
    unwrapped.push([last[0], poleLat], [first[0], poleLat]);
  }
  let minX = Infinity;
  let maxX = -Infinity;
  for (const [x] of unwrapped) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
  }
  const rings = [unwrapped];
  if (minX < -180) rings.push(unwrapped.map(([x, y]) => [x + 360, y]));
  if (maxX > 180) rings.push(unwrapped.map(([x, y]) => [x - 360, y]));
  return rings;
}

/** The part of a GeoJSON geometry these functions read (structurally compatible with GeoJSON types). */
export type PolygonalGeometry =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: string };

/** Every ring of a (Multi)Polygon as separate flat rings; holes are dropped (all land is one fill). */
export function planarPolygons(geometry: PolygonalGeometry | null): [number, number][][] {
  if (!geometry) return [];
  const polygons: Position[][][] =
    geometry.type === 'Polygon' && 'coordinates' in geometry
      ? [geometry.coordinates as Position[][]]
      : geometry.type === 'MultiPolygon' && 'coordinates' in geometry
        ? (geometry.coordinates as Position[][][])
        : [];
  return polygons.flatMap((polygon) => (polygon[0] ? planarRings(polygon[0]) : []));
}
