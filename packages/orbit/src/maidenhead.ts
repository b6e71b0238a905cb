import { normalizeLngDeg } from './antimeridian';

// Maidenhead pairs, coarse to fine: field (18 letters A-R, 20 x 10 degrees), square (10 digits),
// subsquare (24 letters a-x), extended square (10 digits), extended subsquare (24 letters a-x).
// Each pair is longitude first, then latitude.
const DIVISIONS = [18, 10, 24, 10, 24] as const;

/**
 * Maidenhead grid locator of a point, e.g. 40.4168, -3.7038 -> 'IN80dk'. precision is the number
 * of characters: 2, 4, 6 (default), 8 or 10. Longitude wraps; latitude 90 is put in the top row.
 */
export function maidenheadLocator(latDeg: number, lngDeg: number, precision = 6): string {
  if (!Number.isFinite(latDeg) || !Number.isFinite(lngDeg) || latDeg < -90 || latDeg > 90) {
    throw new RangeError('maidenheadLocator needs a latitude in [-90, 90] and a finite longitude');
  }
  const pairs = Math.min(DIVISIONS.length, Math.max(1, Math.floor(precision / 2)));
  let lngRest = normalizeLngDeg(lngDeg) + 180;
  let latRest = latDeg + 90;
  let lngCell = 360;
  let latCell = 180;
  let locator = '';
  for (let pair = 0; pair < pairs; pair++) {
    const division = DIVISIONS[pair] ?? 10;
    lngCell /= division;
    latCell /= division;
    // Clamping keeps latitude 90 (and float round-off at cell edges) inside the last cell.
    const lngIndex = Math.min(division - 1, Math.max(0, Math.floor(lngRest / lngCell)));
    const latIndex = Math.min(division - 1, Math.max(0, Math.floor(latRest / latCell)));
    lngRest -= lngIndex * lngCell;
    latRest -= latIndex * latCell;
    locator += locatorChar(pair, lngIndex) + locatorChar(pair, latIndex);
  }
  return locator;
}

function locatorChar(pair: number, index: number): string {
  if (pair % 2 === 1) return String(index);
  return String.fromCharCode((pair === 0 ? 65 : 97) + index);
}
