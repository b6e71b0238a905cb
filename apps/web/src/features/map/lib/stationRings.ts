import { STATION_MARKER_CIRCLES_KM } from '@tinygs/contracts';
import { footprintCircle, type LatLng as MapPoint } from '@tinygs/orbit';

/** The 1000, 2000 and 3000 km rings around a selected station, each already cut at +-180. */
export function stationRings(
  lat: number,
  lng: number,
): { radiusKm: number; rings: MapPoint[][] }[] {
  return STATION_MARKER_CIRCLES_KM.map((radiusKm) => ({
    radiusKm,
    rings: footprintCircle(lat, lng, radiusKm),
  }));
}
