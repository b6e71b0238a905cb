// What the orbit says about one reception: where the satellite was, whether it was in sunlight,
// its footprint, and how each receiving station saw it (distance, look angles, Doppler).
import type { SatPos } from '@tinygs/contracts';
import {
  dopplerShiftHz,
  footprintRadiusKm,
  groundDistanceKm,
  lookAngles,
  subSatellitePoint,
  sunlight,
  type Tle,
} from '@tinygs/orbit';

export interface PacketOrbitFacts {
  satPos: SatPos | null;
  sunLit: boolean | null;
  /** degrees */
  eclipseDepth: number | null;
  /** km */
  footPrint: number | null;
}

export interface ReceptionGeometry {
  /** ground distance station to sub-satellite point, km */
  distance: number | null;
  elevation: number | null;
  azimuth: number | null;
  /** Hz at the nominal frequency */
  doppler: number | null;
}

const NO_GEOMETRY: ReceptionGeometry = {
  distance: null,
  elevation: null,
  azimuth: null,
  doppler: null,
};

/** Facts from the TLE at `atMs`; without a TLE, a GPS fix the frame carried (balloons). */
export function packetOrbitFacts(
  tle: Tle | null,
  atMs: number,
  gps: SatPos | null,
): PacketOrbitFacts {
  if (tle) {
    const point = subSatellitePoint(tle, atMs);
    if (point) {
      const light = sunlight(tle, atMs);
      return {
        satPos: { lat: point.lat, lng: point.lng, alt: point.alt },
        sunLit: light?.sunLit ?? null,
        eclipseDepth: light?.eclipseDepthDeg ?? null,
        footPrint: footprintRadiusKm(point.alt),
      };
    }
  }
  if (gps)
    return { satPos: gps, sunLit: null, eclipseDepth: null, footPrint: footprintRadiusKm(gps.alt) };
  return { satPos: null, sunLit: null, eclipseDepth: null, footPrint: null };
}

export function receptionGeometry(
  tle: Tle | null,
  atMs: number,
  station: readonly [number, number],
  freqMHz: number,
  fallbackSatPos: SatPos | null,
): ReceptionGeometry {
  if (tle) {
    const point = subSatellitePoint(tle, atMs);
    const look = lookAngles(tle, atMs, { latDeg: station[0], lngDeg: station[1], altKm: 0 });
    if (point && look) {
      return {
        distance: groundDistanceKm(station, [point.lat, point.lng]),
        elevation: look.elevationDeg,
        azimuth: look.azimuthDeg,
        doppler: dopplerShiftHz(freqMHz, look.rangeRateKmPerS),
      };
    }
  }
  if (fallbackSatPos) {
    return {
      ...NO_GEOMETRY,
      distance: groundDistanceKm(station, [fallbackSatPos.lat, fallbackSatPos.lng]),
    };
  }
  return NO_GEOMETRY;
}

/** GPS position a decoded frame reports (tinygsLat/tinygsLng in degrees, tinygsAlt in m), if any. */
export function gpsFromParsed(parsed: Record<string, unknown> | null): SatPos | null {
  const payload = parsed?.payload;
  if (typeof payload !== 'object' || payload === null) return null;
  const { tinygsLat: lat, tinygsLng: lng, tinygsAlt: altM } = payload as Record<string, unknown>;
  if (typeof lat !== 'number' || typeof lng !== 'number') return null;
  // 0/0 is how several decoders say "no fix".
  if (lat === 0 && lng === 0) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng, alt: typeof altM === 'number' ? altM / 1000 : 0 };
}
