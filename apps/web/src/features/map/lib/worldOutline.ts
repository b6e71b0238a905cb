// Natural Earth countries (1:110m, from world-atlas) bundled with the app, so the map stays readable
// without tiles. Shipped as the compact text of worldOutlineData.ts: shared borders written once, one
// printable character per small number (11.4 KB gzip instead of the TopoJSON's 38 KB, and no
// TopoJSON decoding on the main thread; see worldOutlineEncoding.ts); worldOutline.test.ts checks
// that it is what the source data gives.
import { decodeOutline } from './worldOutlineEncoding';
import { WORLD_OUTLINE_110M } from './worldOutlineData';

let cached: GeoJSON.Feature<GeoJSON.MultiPolygon> | null = null;

/** All countries as one flat MultiPolygon in [lng, lat] that Leaflet can draw without stripes. */
export function worldOutline(): GeoJSON.Feature<GeoJSON.MultiPolygon> {
  cached ??= {
    type: 'Feature',
    properties: {},
    geometry: {
      type: 'MultiPolygon',
      coordinates: decodeOutline(WORLD_OUTLINE_110M).map((ring) => [ring]),
    },
  };
  return cached;
}
