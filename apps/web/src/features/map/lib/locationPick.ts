import { LOCATION_DECIMALS } from '@tinygs/contracts';
import { normalizeLngDeg } from '@tinygs/orbit';
import type { LatLng } from './types';

const round = (v: number) => Number(v.toFixed(LOCATION_DECIMALS));

/**
 * A clicked map point as a station location: 3 decimals, longitude folded into -180..180 (a
 * click on a neighbouring world copy reports e.g. 200).
 */
export function pickLocation(clicked: LatLng): LatLng {
  const lat = Math.max(-90, Math.min(90, clicked.lat));
  let lng = round(normalizeLngDeg(clicked.lng));
  // Rounding can carry 179.9996 up to 180, which is still in range; -180 stays -180.
  if (lng > 180) lng = 180;
  return { lat: round(lat), lng };
}
