// Everything the maps draw as lines must be split at +-180: a segment whose ends differ by more
// than 180 deg of longitude would be drawn as a stripe across the whole map.
import { ORBIT_PATH_MINUTES } from '@tinygs/contracts';
import { describe, expect, it } from 'vitest';
import { footprintCircle } from '@tinygs/orbit';
import { planarRings } from '@tinygs/orbit';
import { worldOutline } from './worldOutline';
import { ringOutlines } from './geo';
import { receptionLines } from './packetGeometry';
import { radiationDrawing, bucketBySector } from './radiation';
import { Propagator } from './worker/propagator';

const ISS_1 = '1 25544U 98067A   19156.50900463  .00003075  00000-0  59442-4 0  9992';
const ISS_2 = '2 25544  51.6433  59.2583 0008217  16.4489 347.6017 15.51174618173442';
const AT = Date.parse('2019-06-05T12:00:00Z');

type Line = readonly (readonly [number, number])[];

/** Largest longitude step between neighbours; steps along a pole edge (lat +-90) run along the
 * map border rather than across it, so they do not count. */
function maxLngStep(lines: readonly Line[]): number {
  let max = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i += 1) {
      const [latA = 0, lngA = 0] = line[i - 1] ?? [];
      const [latB = 0, lngB = 0] = line[i] ?? [];
      if (Math.abs(latA) === 90 && latA === latB) continue;
      max = Math.max(max, Math.abs(lngB - lngA));
    }
  }
  return max;
}

describe('lines across the antimeridian', () => {
  it('splits the focused orbit path (190 min ahead) into pieces that never jump across the map', () => {
    const propagator = new Propagator();
    propagator.load([{ name: 'ISS (ZARYA)', line1: ISS_1, line2: ISS_2 }]);
    const focus = propagator.tick({ timeMs: AT, focus: 0 }).focus;
    expect(focus).not.toBeNull();
    const path = focus?.path ?? [];
    // ISS circles the Earth about twice in 190 minutes, so it crosses 180 deg at least once.
    expect(path.length).toBeGreaterThan(1);
    expect(maxLngStep(path)).toBeLessThan(180);
    // 191 propagated points plus the points added on the map edges.
    expect(path.flat().length).toBeGreaterThanOrEqual(ORBIT_PATH_MINUTES + 1);
    for (const [, lng] of path.flat()) expect(Math.abs(lng)).toBeLessThanOrEqual(180);
  });

  it('splits a station-to-satellite line of the packet map at 180 deg', () => {
    const [reception] = receptionLines({
      satPos: { lat: -17, lng: -178, alt: 500 },
      stations: [
        {
          name: 'FijiGS',
          userId: '7',
          location: [-18, 178],
          distance: 400,
          elevation: 40,
          azimuth: 90,
          usec_time: 0,
          doppler: 0,
          frequency_offset: 0,
          crc_error: false,
          receptionParams: { rssi: -100, snr: 5, frequency_error: 0 },
        },
      ],
    });
    expect(reception?.lines.length).toBe(2);
    expect(maxLngStep(reception?.lines ?? [])).toBeLessThan(180);
    expect(reception?.lines[0]?.at(-1)?.[1]).toBe(180);
    expect(reception?.lines[1]?.[0]?.[1]).toBe(-180);
  });

  it('splits the radials of a radiation diagram for a station next to the antimeridian', () => {
    const station = { lat: -18, lng: 178 };
    const { radials } = radiationDrawing(station, bucketBySector(station, []));
    expect(radials.length).toBeGreaterThan(16);
    expect(maxLngStep(radials)).toBeLessThan(180);
  });

  it('outlines a circle cut at 180 deg without a bar along the cut', () => {
    const rings = footprintCircle(-18, 178, 1000);
    expect(rings).toHaveLength(2);
    const outlines = ringOutlines(rings);
    expect(maxLngStep(outlines)).toBeLessThan(180);
    for (const line of outlines) {
      for (let i = 1; i < line.length; i += 1) {
        const a = line[i - 1] ?? [0, 0];
        const b = line[i] ?? [0, 0];
        expect(Math.abs(a[1]) === 180 && a[1] === b[1]).toBe(false);
      }
    }
    // Nothing of the circle itself is lost: every ring vertex is on some outline.
    expect(outlines.flat().length).toBeGreaterThanOrEqual(rings.flat().length);
  });

  it('draws the world outline without rings that jump across the map', () => {
    const outline = worldOutline().geometry.coordinates;
    // GeoJSON order is [lng, lat]: turn into [lat, lng] for the shared check.
    const rings = outline.map((polygon) =>
      (polygon[0] ?? []).map(([lng = 0, lat = 0]) => [lat, lng] as const),
    );
    expect(rings.length).toBeGreaterThan(150);
    expect(maxLngStep(rings)).toBeLessThan(180);
  });

  it('closes a ring around the south pole along the bottom edge and copies rings past 180', () => {
    const antarcticaLike = [
      [-180, -70],
      [-90, -72],
      [0, -70],
      [90, -72],
      [180, -70],
      [-180, -70],
    ];
    const [ring] = planarRings(antarcticaLike);
    expect(ring?.slice(-2).map(([, lat]) => lat)).toEqual([-90, -90]);

    const fijiLike = [
      [178, -17],
      [-179, -17],
      [-179, -18],
      [178, -18],
      [178, -17],
    ];
    const copies = planarRings(fijiLike);
    expect(copies).toHaveLength(2);
    expect(copies[0]?.map(([lng]) => lng)).toEqual([178, 181, 181, 178, 178]);
    expect(copies[1]?.map(([lng]) => lng)).toEqual([-182, -179, -179, -182, -182]);
  });
});
