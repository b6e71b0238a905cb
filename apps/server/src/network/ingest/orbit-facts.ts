// What the orbit says about one reception: where the satellite was, whether it was in sunlight,
// its footprint, and how each receiving station saw it (distance, look angles, Doppler).
import type { SatPos } from '@tinygs/contracts';
import {
  dopplerShiftHz,
  footprintRadiusKm,
  geodeticInto,
  groundDistanceKm,
  lookAnglesInto,
  newInertialState,
  observerFrame,
  propagateInto,
  sunlightOfState,
  type InertialState,
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

// The packet's facts and its first reception's geometry are computed at the same time from the same
// TLE: SGP4 runs once for both (it used to run four times per new packet).
const state = newInertialState();
let stateTle: Tle | null = null;
let stateAtMs = Number.NaN;
let stateOk = false;

function propagated(tle: Tle, atMs: number): InertialState | null {
  if (tle !== stateTle || atMs !== stateAtMs) {
    stateOk = propagateInto(tle, atMs, state);
    stateTle = tle;
    stateAtMs = atMs;
  }
  return stateOk ? state : null;
}

/** Facts from the TLE at `atMs`; without a TLE, a GPS fix the frame carried (balloons). */
export function packetOrbitFacts(
  tle: Tle | null,
  atMs: number,
  gps: SatPos | null,
): PacketOrbitFacts {
  const propagatedState = tle ? propagated(tle, atMs) : null;
  if (propagatedState) {
    const point = geodeticInto(propagatedState, { lat: 0, lng: 0, alt: 0 });
    const light = sunlightOfState(propagatedState);
    return {
      satPos: { lat: point.lat, lng: point.lng, alt: point.alt },
      sunLit: light.sunLit,
      eclipseDepth: light.eclipseDepthDeg,
      footPrint: footprintRadiusKm(point.alt),
    };
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
  const propagatedState = tle ? propagated(tle, atMs) : null;
  if (propagatedState) {
    const frame = observerFrame({ latDeg: station[0], lngDeg: station[1], altKm: 0 });
    const look = lookAnglesInto(propagatedState, frame, {
      azimuthDeg: 0,
      elevationDeg: 0,
      rangeKm: 0,
      rangeRateKmPerS: 0,
    });
    const point = geodeticInto(propagatedState, { lat: 0, lng: 0, alt: 0 });
    return {
      distance: groundDistanceKm(station, [point.lat, point.lng]),
      elevation: look.elevationDeg,
      azimuth: look.azimuthDeg,
      doppler: dopplerShiftHz(freqMHz, look.rangeRateKmPerS),
    };
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
