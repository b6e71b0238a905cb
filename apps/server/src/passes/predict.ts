// Pass predictions with the orbit package: the passes of a satellite over an observer (AOS, LOS,
// highest point, azimuth at each, sunlight), and which of a station's passes auto-tune is tuned
// to at their highest point.
import { isTleStale, type Pass, type PassIllumination } from '@tinygs/contracts';
import { lookAngles, nextPasses, sunlight, type Observer, type Tle } from '@tinygs/orbit';
import type { NetworkSatellite } from '../network/ingest/catalogue';

/** Horizon scan step: a grazing pass shorter than this may be missed. */
const SCAN_STEP_S = 30;

function azimuthAt(tle: Tle, at: number, observer: Observer): number {
  const look = lookAngles(tle, at, observer);
  return look ? Math.round(look.azimuthDeg * 10) / 10 : 0;
}

function illuminationOf(tle: Tle, times: readonly number[]): PassIllumination {
  const lit = times.map((t) => sunlight(tle, t)?.sunLit ?? false);
  if (lit.every(Boolean)) return 'sunlit';
  return lit.some(Boolean) ? 'partly' : 'eclipsed';
}

/** The passes of one satellite over `observer` within [fromMs, fromMs + hours]. */
export function satellitePasses(
  satellite: NetworkSatellite,
  observer: Observer,
  fromMs: number,
  hours: number,
): Pass[] {
  const tle = satellite.tle;
  if (!tle) return [];
  const configuration = satellite.configurations[0];
  return nextPasses(tle, observer, fromMs, hours, SCAN_STEP_S).map((p) => {
    const aos = p.aos.getTime();
    const los = p.los.getTime();
    const top = p.maxElevationAt.getTime();
    return {
      satellite: satellite.name,
      displayName: satellite.displayName,
      norad: satellite.norad,
      freq: configuration?.freq ?? null,
      mode: configuration?.mode ?? null,
      aos,
      los,
      maxElevationAt: top,
      maxElevation: Math.round(p.maxElevationDeg * 10) / 10,
      aosAzimuth: azimuthAt(tle, aos, observer),
      maxElevationAzimuth: azimuthAt(tle, top, observer),
      losAzimuth: azimuthAt(tle, los, observer),
      illumination: illuminationOf(tle, [aos, top, los]),
      autoTune: false,
    };
  });
}

/**
 * Marks the passes auto-tune is tuned to at their highest point. Auto-tune (network/auto-tune.ts)
 * tunes each minute to the satellite that stands highest within the next `lookaheadMinutes`:
 * at a pass's highest point that is its own peak, against, for every other satellite's pass in
 * the same look-ahead, its peak when inside, else its elevation at the nearer end. As auto-tune
 * does, a satellite with a fresh element set wins over one with a stale set whatever their heights.
 */
export function markAutoTune(
  passes: Pass[],
  tles: ReadonlyMap<string, Tle>,
  observer: Observer,
  lookaheadMinutes: number,
): void {
  const lookaheadMs = lookaheadMinutes * 60_000;
  const fresh = (satellite: string, at: number): boolean => {
    const tle = tles.get(satellite);
    return tle !== undefined && !isTleStale(tle.epoch.getTime(), at);
  };
  for (const pass of passes) {
    const start = pass.maxElevationAt;
    const end = start + lookaheadMs;
    const passFresh = fresh(pass.satellite, start);
    pass.autoTune = passes.every((other) => {
      if (other.satellite === pass.satellite || other.los < start || other.aos > end) return true;
      const otherFresh = fresh(other.satellite, start);
      if (passFresh !== otherFresh) return passFresh;
      let best = other.maxElevation;
      if (other.maxElevationAt < start || other.maxElevationAt > end) {
        const tle = tles.get(other.satellite);
        const at = other.maxElevationAt < start ? start : end;
        best = (tle && lookAngles(tle, at, observer)?.elevationDeg) ?? -90;
      }
      return pass.maxElevation >= best;
    });
  }
}
