// The outline the app ships (worldOutlineData.ts) must be the world-atlas countries, split at the
// antimeridian, to a tenth of a degree. `UPDATE_WORLD_OUTLINE=1 npx vitest run <this file>` writes
// it again (after a world-atlas update).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planarPolygons } from '@tinygs/orbit';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { describe, expect, it } from 'vitest';
import { worldOutline } from './worldOutline';
import { WORLD_OUTLINE_110M } from './worldOutlineData';
import { decodeOutline, encodeOutline } from './worldOutlineEncoding';

function sourceRings(): [number, number][][] {
  const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(topology, topology.objects.countries).features.flatMap((f) =>
    planarPolygons(f.geometry),
  );
}

describe('world outline', () => {
  it('is the 1:110m countries to a tenth of a degree', () => {
    const expected = encodeOutline(sourceRings());
    if (process.env.UPDATE_WORLD_OUTLINE) {
      const file = join(import.meta.dirname, 'worldOutlineData.ts');
      const head = readFileSync(file, 'utf8').split('export const')[0] ?? '';
      writeFileSync(file, `${head}export const WORLD_OUTLINE_110M =\n  '${expected}';\n`);
      return;
    }
    expect(WORLD_OUTLINE_110M).toBe(expected);
  });

  it('decodes to the source points within half a tenth of a degree', () => {
    const source = sourceRings();
    const decoded = decodeOutline(WORLD_OUTLINE_110M);
    // Only islets smaller than the precision are left out.
    expect(decoded.length).toBeGreaterThan(source.length - 5);
    expect(decoded.length).toBeLessThanOrEqual(source.length);
    const points = source.flat();
    let far = 0;
    for (const ring of decoded) {
      expect(ring.length).toBeGreaterThan(2);
      // Every decoded point is a source point rounded: each lies within 0.05 deg (+ float noise).
      for (const [lng, lat] of ring) {
        const near = points.some(
          ([x, y]) => Math.abs(x - lng) <= 0.05001 && Math.abs(y - lat) <= 0.05001,
        );
        if (!near) far += 1;
      }
    }
    expect(far).toBe(0);
    expect(decoded.flat().length).toBeGreaterThan(0.8 * points.length);
    // Countries cover every continent: the ring bounds span the whole map.
    const lngs = decoded.flat().map(([x]) => x);
    const lats = decoded.flat().map(([, y]) => y);
    expect(Math.min(...lngs)).toBeLessThanOrEqual(-179.9);
    expect(Math.max(...lngs)).toBeGreaterThanOrEqual(179.9);
    expect(Math.min(...lats)).toBeLessThan(-85);
    expect(Math.max(...lats)).toBeGreaterThan(83);
  });

  it('gives Leaflet one MultiPolygon of closed rings', () => {
    const outline = worldOutline();
    expect(outline.geometry.type).toBe('MultiPolygon');
    expect(outline.geometry.coordinates.length).toBe(decodeOutline(WORLD_OUTLINE_110M).length);
    for (const [ring] of outline.geometry.coordinates) expect(ring?.length).toBeGreaterThan(2);
  });
});
