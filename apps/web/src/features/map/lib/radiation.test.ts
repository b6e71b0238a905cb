import { RADIATION_MAX_KM } from '@tinygs/contracts';
import { groundDistanceKm } from '@tinygs/orbit';
import { describe, expect, it } from 'vitest';
import { destinationPoint } from './geo';
import {
  bucketBySector,
  heatmapPositions,
  radialBearingsDeg,
  radiationCircleRadiiKm,
  radiationDrawing,
  sectorIndex,
  statisticsPositions,
} from './radiation';

const MADRID = { lat: 40.4168, lng: -3.7038 };

describe('radiation diagram geometry', () => {
  it('has circles every 500 km up to 3000 km and radials every 22.5 deg', () => {
    expect(radiationCircleRadiiKm()).toEqual([500, 1000, 1500, 2000, 2500, 3000]);
    expect(radialBearingsDeg()).toHaveLength(16);
    expect(radialBearingsDeg().slice(0, 3)).toEqual([0, 22.5, 45]);
    expect(radialBearingsDeg().at(-1)).toBe(337.5);
  });

  it('draws each circle at its radius around the station', () => {
    const { circles } = radiationDrawing(MADRID, bucketBySector(MADRID, []));
    expect(circles.map((c) => c.radiusKm)).toEqual([500, 1000, 1500, 2000, 2500, 3000]);
    for (const { radiusKm, rings } of circles) {
      for (const [lat, lng] of rings.flat()) {
        expect(groundDistanceKm([MADRID.lat, MADRID.lng], [lat, lng])).toBeCloseTo(radiusKm, 0);
      }
    }
  });

  it('buckets bearings into the 16 sectors between the radials', () => {
    expect(sectorIndex(0)).toBe(0);
    expect(sectorIndex(22.49)).toBe(0);
    expect(sectorIndex(22.5)).toBe(1);
    expect(sectorIndex(90)).toBe(4);
    expect(sectorIndex(359.9)).toBe(15);
    expect(sectorIndex(360)).toBe(0);
    expect(sectorIndex(-10)).toBe(15);
  });

  it('counts receptions by direction and keeps the farthest distance of each sector', () => {
    const frames = [
      destinationPoint(MADRID, 10, 800), // north
      destinationPoint(MADRID, 5, 1500), // north, farther
      destinationPoint(MADRID, 100, 600), // east
      destinationPoint(MADRID, 200, 2000), // south-south-west
      destinationPoint(MADRID, 300, 4200), // north-west, beyond the outer circle
      MADRID, // overhead: no direction
    ];
    const sectors = bucketBySector(MADRID, frames);
    expect(sectors.map((s) => s.count)).toEqual([2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]);
    expect(sectors[0]?.maxDistanceKm).toBeCloseTo(1500, 0);
    expect(sectors[4]?.maxDistanceKm).toBeCloseTo(600, 0);
    expect(sectors[8]?.maxDistanceKm).toBeCloseTo(2000, 0);

    // The outline reaches the farthest reception of a sector, but never past the outer circle.
    const { outline } = radiationDrawing(MADRID, sectors);
    const distances = outline.map(([lat, lng]) =>
      groundDistanceKm([MADRID.lat, MADRID.lng], [lat, lng]),
    );
    expect(Math.max(...distances)).toBeCloseTo(RADIATION_MAX_KM, 0);
    expect(distances.filter((d) => Math.abs(d - 1500) < 1).length).toBeGreaterThan(0);
  });

  it('takes frame positions from the statistics, oldest day first, and caps the heat map at 2000', () => {
    const stats = [
      { day: '2024-05-02', frames: [{ satellite: 'B', satPos: { lat: 2, lng: 2 } }] },
      { day: '2024-05-01', frames: [{ satellite: 'A', satPos: { lat: 1, lng: 1 } }] },
    ];
    expect(statisticsPositions(stats)).toEqual([
      { lat: 1, lng: 1 },
      { lat: 2, lng: 2 },
    ]);
    const many = Array.from({ length: 2500 }, (_, i) => ({ lat: 0, lng: i / 100 }));
    const heat = heatmapPositions(many);
    expect(heat).toHaveLength(2000);
    expect(heat[0]).toEqual(many[500]);
  });
});
