import { LOCATION_PICKER_DEFAULT } from '@tinygs/contracts';
import * as L from 'leaflet';
import { useCallback, useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { BaseMap } from './BaseMap';
import { PANES, paneRenderer } from '../lib/panes';
import { pickLocation } from '../lib/locationPick';
import type { LatLng, LocationPickerProps } from '../lib/types';

/** New-station form map: a click picks the station location. */
export default function LocationPicker({ value, onChange }: LocationPickerProps) {
  const onMapClick = useCallback(
    (e: L.LeafletMouseEvent) => onChange(pickLocation(e.latlng)),
    [onChange],
  );
  return (
    <BaseMap
      center={
        value ? [value.lat, value.lng] : [LOCATION_PICKER_DEFAULT.lat, LOCATION_PICKER_DEFAULT.lng]
      }
      zoom={LOCATION_PICKER_DEFAULT.zoom}
      height={320}
      onMapClick={onMapClick}
    >
      {value && <PickedMarker value={value} />}
    </BaseMap>
  );
}

function PickedMarker({ value }: { value: LatLng }) {
  const map = useMap();
  useEffect(() => {
    const marker = L.circleMarker([value.lat, value.lng], {
      renderer: paneRenderer(map, PANES.stations.name),
      pane: PANES.stations.name,
      interactive: false,
      radius: 7,
      color: '#ffffff',
      weight: 2,
      fillColor: '#f44336',
      fillOpacity: 1,
    }).addTo(map);
    return () => {
      marker.remove();
    };
  }, [map, value.lat, value.lng]);
  return null;
}
