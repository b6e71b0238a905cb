// Natural Earth countries (1:110m) bundled with the app, so the map stays readable without tiles.
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';

let cached: GeoJSON.FeatureCollection | null = null;

export function worldCountries(): GeoJSON.FeatureCollection {
  if (!cached) {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    cached = feature(topology, topology.objects.countries);
  }
  return cached;
}
