// Radiation diagram of a station: where, by direction and distance, its receptions came from.
// Each frame's sub-satellite point is turned into a bearing and ground distance from the station
// and counted in one of 16 sectors bounded by the radials (every 22.5 deg, the first at north).
import {
  HEATMAP_MAX_FRAMES,
  RADIATION_CIRCLE_STEP_KM,
  RADIATION_MAX_KM,
  RADIATION_RADIAL_STEP_DEG,
  type StationStatistics,
} from '@tinygs/contracts';
import { footprintCircle, groundDistanceKm } from '@tinygs/orbit';
import { destinationPoint, initialBearingDeg, rayLines, type MapPoint } from './geo';
import type { LatLng } from './types';

export const SECTOR_COUNT = Math.round(360 / RADIATION_RADIAL_STEP_DEG);

export interface Sector {
  /** bearing where the sector starts, clockwise from north */
  fromDeg: number;
  toDeg: number;
  count: number;
  /** farthest reception in this sector, 0 when none */
  maxDistanceKm: number;
}

/** 500, 1000, ... 3000 km. */
export function radiationCircleRadiiKm(): number[] {
  const radii: number[] = [];
  for (let r = RADIATION_CIRCLE_STEP_KM; r <= RADIATION_MAX_KM; r += RADIATION_CIRCLE_STEP_KM)
    radii.push(r);
  return radii;
}

/** 0, 22.5, ... 337.5 deg. */
export function radialBearingsDeg(): number[] {
  return Array.from({ length: SECTOR_COUNT }, (_, i) => i * RADIATION_RADIAL_STEP_DEG);
}

export function sectorIndex(bearingDeg: number): number {
  const b = ((bearingDeg % 360) + 360) % 360;
  return Math.min(SECTOR_COUNT - 1, Math.floor(b / RADIATION_RADIAL_STEP_DEG));
}

/** Every frame position of the statistics, oldest day first (days are YYYY-MM-DD, so text order). */
export function statisticsPositions(stats: StationStatistics): LatLng[] {
  const out: LatLng[] = [];
  const days = [...stats].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  for (const day of days)
    for (const f of day.frames) out.push({ lat: f.satPos.lat, lng: f.satPos.lng });
  return out;
}

export function bucketBySector(station: LatLng, positions: readonly LatLng[]): Sector[] {
  const sectors: Sector[] = radialBearingsDeg().map((fromDeg) => ({
    fromDeg,
    toDeg: fromDeg + RADIATION_RADIAL_STEP_DEG,
    count: 0,
    maxDistanceKm: 0,
  }));
  for (const p of positions) {
    const distanceKm = groundDistanceKm([station.lat, station.lng], [p.lat, p.lng]);
    // A frame right above the station has no direction to speak of.
    if (!(distanceKm > 0)) continue;
    const sector = sectors[sectorIndex(initialBearingDeg(station, p))];
    if (!sector) continue;
    sector.count += 1;
    sector.maxDistanceKm = Math.max(sector.maxDistanceKm, distanceKm);
  }
  return sectors;
}

export interface RadiationDrawing {
  /** one entry per circle radius, each the polygon rings of that circle */
  circles: { radiusKm: number; rings: MapPoint[][] }[];
  /** polylines of the radials, split at the antimeridian */
  radials: MapPoint[][];
  /**
   * The diagram: each sector drawn as an arc at its farthest reception (capped at the outermost
   * circle). Longitudes stay continuous around the station so the shape is never torn apart.
   */
  outline: MapPoint[];
}

export function radiationDrawing(
  station: LatLng,
  sectors: readonly Sector[],
  arcSteps = 4,
): RadiationDrawing {
  const circles = radiationCircleRadiiKm().map((radiusKm) => ({
    radiusKm,
    rings: footprintCircle(station.lat, station.lng, radiusKm),
  }));
  const radials = radialBearingsDeg().flatMap((b) => rayLines(station, b, RADIATION_MAX_KM));
  const outline: MapPoint[] = [];
  for (const s of sectors) {
    const r = Math.min(s.maxDistanceKm, RADIATION_MAX_KM);
    for (let i = 0; i <= arcSteps; i += 1) {
      const p =
        r > 0
          ? destinationPoint(station, s.fromDeg + ((s.toDeg - s.fromDeg) * i) / arcSteps, r)
          : station;
      outline.push([p.lat, p.lng]);
    }
  }
  return { circles, radials, outline };
}

/** The newest frames only: the heat map is bounded to keep the canvas fast. */
export function heatmapPositions(positions: readonly LatLng[]): LatLng[] {
  return positions.slice(-HEATMAP_MAX_FRAMES);
}
