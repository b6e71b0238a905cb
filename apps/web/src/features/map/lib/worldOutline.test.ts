// The outline the app ships (worldOutlineData.ts) must be the world-atlas countries, split at the
// antimeridian, to a tenth of a degree. `UPDATE_WORLD_OUTLINE=1 npx vitest run <this file>` writes
// it again (after a world-atlas update).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planarPolygons } from '@tinygs/orbit';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { describe, expect, it } from 'vitest';
import { worldOutline } from './worldOutline';
import { WORLD_OUTLINE_110M } from './worldOutlineData';
import { decodeOutline, encodeOutline, quantizeOutline } from './worldOutlineEncoding';

function sourceRings(): [number, number][][] {
  const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(topology, topology.objects.countries).features.flatMap((f) =>
    planarPolygons(f.geometry),
  );
}

/**
 * What the app drew before the arcs: each ring's points rounded to tenths (runs of equal points
 * kept once, rings under three points dropped) written as "dx,dy,..." deltas and read back.
 */
function deltaTextRings(rings: readonly (readonly [number, number])[][]): [number, number][][] {
  const text = rings
    .map((ring) => {
      const out: number[] = [];
      let px = 0;
      let py = 0;
      for (const [lng, lat] of ring) {
        const x = Math.round(lng * 10);
        const y = Math.round(lat * 10);
        if (out.length > 0 && x === px && y === py) continue;
        out.push(x - px, y - py);
        px = x;
        py = y;
      }
      return out.length >= 6 ? out.join(',') : '';
    })
    .filter((part) => part !== '')
    .join(';');
  return text.split(';').map((part) => {
    const values = part.split(',').map(Number);
    const ring: [number, number][] = [];
    for (let i = 0, x = 0, y = 0; i + 1 < values.length; i += 2) {
      x += values[i] ?? 0;
      y += values[i + 1] ?? 0;
      ring.push([x / 10, y / 10]);
    }
    return ring;
  });
}

const digest = (rings: unknown): string =>
  createHash('sha256').update(JSON.stringify(rings)).digest('hex');

const roundTrip = (rings: [number, number][][]) => decodeOutline(encodeOutline(rings));
const inTenths = (rings: [number, number][][]) =>
  quantizeOutline(rings).map((ring) => ring.map(([x, y]) => [x / 10, y / 10]));

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

  it('decodes to exactly the rings the delta text gave, in the same order', () => {
    const decoded = decodeOutline(WORLD_OUTLINE_110M);
    expect(decoded).toEqual(deltaTextRings(sourceRings()));
    // The 287 rings the app drew with the delta text of world-atlas 2.0.2 (digest of their JSON).
    expect(decoded).toHaveLength(287);
    expect(digest(decoded)).toBe(
      '4390bf74f047d6457de9177b1e0fb2000cb51daecfa79204a66f23b21391c2c6',
    );
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

  it('is a plain string that a single-quoted JS literal and minifiers keep as it is', () => {
    expect(WORLD_OUTLINE_110M).toMatch(/^[!-~]+$/);
    expect(WORLD_OUTLINE_110M).not.toMatch(/[\\'"`$]/);
  });

  it('stores a border two rings share once and reads it back reversed', () => {
    // A wiggly border along x = 1 from (1, 0) up to (1, 1).
    const border: [number, number][] = [0, 0.2, 0.3, 0.5, 0.6, 0.8, 1].map((y, i) => [
      1 + (i % 2) * 0.1,
      y,
    ]);
    const west: [number, number][] = [[0, 0], ...border, [0, 1], [0, 0]];
    // The east ring runs along the shared border the other way.
    const east: [number, number][] = [...border.toReversed(), [2, 0], [2, 1], [1, 1]];
    expect(roundTrip([west, east])).toEqual([west, east]);
    // Seven points are two characters each alone; once shared they are a reference.
    const apart = encodeOutline([west]).length + encodeOutline([east]).length;
    expect(encodeOutline([west, east]).length).toBeLessThan(apart - 8);
    // Rings that start inside a shared border come back starting where they started.
    const rotated: [number, number][] = [...east.slice(3, -1), ...east.slice(0, 4)];
    expect(roundTrip([west, rotated, east])).toEqual([west, rotated, east]);
  });

  it('reads back large jumps, copies shifted by 360 deg and rings open at the pole', () => {
    const fiji: [number, number][] = [
      [178, -17],
      [181, -17],
      [181, -18],
      [178, -18],
      [178, -17],
    ];
    const copy = fiji.map(([x, y]): [number, number] => [x - 360, y]);
    // Antarctica: split at the antimeridian, closed along the bottom edge, not back to its start.
    const antarctica: [number, number][] = [
      [-180, -84.7],
      [-179.9, -84.7],
      [0, -70.3],
      [179.94, -84.66],
      [180, -84.7],
      [180, -90],
      [-180, -90],
    ];
    const far: [number, number][] = [
      [-179.95, 89.95],
      [180, -89.9],
      [-180, 0],
      [-179.95, 89.95],
    ];
    const rings = [fiji, copy, antarctica, far, copy];
    expect(roundTrip(rings)).toEqual(inTenths(rings));
    expect(roundTrip(rings)[4]).toEqual(copy);
    expect(roundTrip(rings)[2]?.[3]).toEqual([179.9, -84.7]);
  });

  it('drops repeated points and islets under three points as the delta text did', () => {
    const rings: [number, number][][] = [
      [
        [10, 10],
        [10.01, 10.02],
        [11, 10],
        [11, 11],
        [10, 10],
      ],
      [
        [5, 5],
        [5.04, 5.01],
        [5, 5],
      ],
    ];
    expect(roundTrip(rings)).toEqual(deltaTextRings(rings));
    expect(roundTrip(rings)).toHaveLength(1);
  });

  it('refuses text that is not an outline instead of drawing garbage', () => {
    expect(() => decodeOutline(`${WORLD_OUTLINE_110M.slice(0, 101)}'`)).toThrow(/world outline/);
    expect(() => decodeOutline(WORLD_OUTLINE_110M.slice(0, 1001))).toThrow(/world outline/);
  });

  it('gives Leaflet one MultiPolygon of closed rings', () => {
    const outline = worldOutline();
    expect(outline.geometry.type).toBe('MultiPolygon');
    expect(outline.geometry.coordinates.length).toBe(decodeOutline(WORLD_OUTLINE_110M).length);
    for (const [ring] of outline.geometry.coordinates) expect(ring?.length).toBeGreaterThan(2);
  });
});
