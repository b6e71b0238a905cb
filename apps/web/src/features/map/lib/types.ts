import type { Packet, PacketDetail, StationFull, StationListItem } from '@tinygs/contracts';

export interface LatLng {
  lat: number;
  lng: number;
}

export interface WorldMapProps {
  height?: number | string;
}

export interface PacketMapProps {
  packet: PacketDetail;
}

export interface StationPacketsMapProps {
  station: StationFull;
  packets: Packet[];
}

export interface LocationPickerProps {
  value: LatLng | null;
  onChange: (value: LatLng) => void;
}

export interface StationsMapProps {
  stations: readonly StationListItem[];
  selected: StationListItem | null;
  /** null when the map background is clicked */
  onSelect: (station: StationListItem | null) => void;
  height?: number | string;
}
