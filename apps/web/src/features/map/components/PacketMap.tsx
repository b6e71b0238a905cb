import * as L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { BaseMap } from './BaseMap';
import { PANES, paneRenderer } from '../lib/panes';
import { lngNear, shiftLines, shiftPoint, WORLD_COPY_OFFSETS_DEG } from '../lib/geo';
import { packetFootprintRadiusM, receptionLines } from '../lib/packetGeometry';
import type { PacketMapProps } from '../lib/types';

/** Packet page map: where the satellite was and which stations heard it. */
export default function PacketMap({ packet }: PacketMapProps) {
  return (
    <BaseMap center={[packet.satPos.lat, packet.satPos.lng]} zoom={3} height={420}>
      <PacketLayers packet={packet} />
    </BaseMap>
  );
}

function PacketLayers({ packet }: PacketMapProps) {
  const map = useMap();
  useEffect(() => {
    const group = L.layerGroup();
    const coverage = paneRenderer(map, PANES.coverage.name);
    const paths = paneRenderer(map, PANES.paths.name);
    const points = paneRenderer(map, PANES.satellites.name);
    const sat: [number, number] = [packet.satPos.lat, packet.satPos.lng];
    const receptions = receptionLines(packet);

    for (const d of WORLD_COPY_OFFSETS_DEG) {
      L.circle(shiftPoint(sat, d), {
        renderer: coverage,
        pane: PANES.coverage.name,
        radius: packetFootprintRadiusM(packet),
        color: '#ffd54f',
        weight: 1.5,
        fillOpacity: 0.12,
      }).addTo(group);
      for (const r of receptions) {
        L.polyline(shiftLines(r.lines, d), {
          renderer: paths,
          pane: PANES.paths.name,
          color: '#4fc3f7',
          weight: 1.5,
          opacity: 0.8,
        }).addTo(group);
        L.circleMarker(shiftPoint(r.station, d), {
          renderer: points,
          pane: PANES.satellites.name,
          radius: 5,
          color: '#0d3b12',
          weight: 1,
          fillColor: '#4caf50',
          fillOpacity: 1,
        })
          .bindTooltip(r.stationId)
          .addTo(group);
      }
      L.circleMarker(shiftPoint(sat, d), {
        renderer: points,
        pane: PANES.satellites.name,
        radius: 7,
        color: '#1a1a1a',
        weight: 1,
        fillColor: '#ffd54f',
        fillOpacity: 1,
      })
        .bindTooltip(packet.satDisplayName)
        .addTo(group);
    }
    group.addTo(map);
    if (receptions.length > 0) {
      // Fit around the satellite: a station across the antimeridian counts on the near side.
      const bounds = L.latLngBounds([sat, sat]);
      for (const r of receptions) bounds.extend([r.station[0], lngNear(r.station[1], sat[1])]);
      map.fitBounds(bounds, { padding: [30, 30], maxZoom: 5 });
    }
    return () => {
      group.remove();
    };
  }, [map, packet]);
  return null;
}
