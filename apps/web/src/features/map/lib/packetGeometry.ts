// What the packet page's map draws, kept apart from Leaflet so the rules can be checked directly.
import {
  PACKET_MAP_DEFAULT_RADIUS_M,
  PACKET_MAP_FOOTPRINT_FACTOR,
  formatStationId,
  type PacketDetail,
} from '@tinygs/contracts';
import { greatCircleLines, type MapPoint } from './geo';

/** Circle radius in metres: 500 x footPrint when the packet has one, otherwise 3000 m (SPEC.md section 9). */
export function packetFootprintRadiusM(packet: Pick<PacketDetail, 'footPrint'>): number {
  const footPrint: unknown = packet.footPrint;
  return typeof footPrint === 'number' && Number.isFinite(footPrint) && footPrint > 0
    ? PACKET_MAP_FOOTPRINT_FACTOR * footPrint
    : PACKET_MAP_DEFAULT_RADIUS_M;
}

export interface ReceptionLine {
  stationId: string;
  station: MapPoint;
  /** great-circle line station -> satellite, split at the antimeridian */
  lines: MapPoint[][];
}

export function receptionLines(packet: Pick<PacketDetail, 'satPos' | 'stations'>): ReceptionLine[] {
  const sat = { lat: packet.satPos.lat, lng: packet.satPos.lng };
  return packet.stations.map((s) => ({
    stationId: formatStationId(s.name, s.userId),
    station: [s.location[0], s.location[1]],
    lines: greatCircleLines({ lat: s.location[0], lng: s.location[1] }, sat),
  }));
}
