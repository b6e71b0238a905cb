// Natural Earth countries (1:110m) bundled with the app, so the map stays readable without tiles.
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { planarPolygons } from '@tinygs/orbit';

let cached: GeoJSON.Feature<GeoJSON.MultiPolygon> | null = null;

/** All countries as one flat MultiPolygon in [lng, lat] that Leaflet can draw without stripes. */
export function worldOutline(): GeoJSON.Feature<GeoJSON.MultiPolygon> {
  if (!cached) {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    const countries = feature(topology, topology.objects.countries);
    const rings = countries.features.flatMap((f) => planarPolygons(f.geometry));
    cached = {
      type: 'Feature',
      properties: {},
      geometry: { type: 'MultiPolygon', coordinates: rings.map((ring) => [ring]) },
    };
  }
  return cached;
}
