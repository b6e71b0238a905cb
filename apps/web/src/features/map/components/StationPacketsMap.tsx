import { TX_POWER_GROUPS, txPowerGroup, type TxPowerGroupId } from '@tinygs/contracts';
import * as L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { useNavigate } from 'react-router';
import { BaseMap } from './BaseMap';
import { PANES, paneRenderer } from '../lib/panes';
import { ringOutlines, shiftLines, WORLD_COPY_OFFSETS_DEG } from '../lib/geo';
import { stationRings } from '../lib/stationRings';
import type { StationPacketsMapProps } from '../lib/types';

export const TX_POWER_COLORS: Record<TxPowerGroupId, string> = {
  '<=100': '#4caf50',
  '101-500': '#cddc39',
  '501-1000': '#ffc107',
  '1001-2000': '#ff9800',
  '>2000': '#f44336',
  'no-power': '#90a4ae',
  'crc-error': '#9c27b0',
};

/** Station page map: the station, its distance rings and where its packets were heard from. */
export default function StationPacketsMap({ station, packets }: StationPacketsMapProps) {
  return (
    <div style={{ position: 'relative' }}>
      <BaseMap center={station.location} zoom={3} height={420}>
        <StationPacketLayers station={station} packets={packets} />
      </BaseMap>
      <Legend />
    </div>
  );
}

function Legend() {
  return (
    <div
      style={{
        position: 'absolute',
        right: 10,
        bottom: 24,
        zIndex: 1000,
        background: 'rgba(0,0,0,0.6)',
        color: '#fff',
        padding: '4px 8px',
        borderRadius: 4,
        fontSize: 12,
      }}
    >
      {TX_POWER_GROUPS.map((g) => (
        <div key={g.id}>
          <span style={{ color: TX_POWER_COLORS[g.id] }}>&#9679;</span> {g.label}
        </div>
      ))}
    </div>
  );
}

function StationPacketLayers({ station, packets }: StationPacketsMapProps) {
  const map = useMap();
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const [lat, lng] = station.location;
  useEffect(() => {
    const renderer = paneRenderer(map, PANES.coverage.name);
    const group = L.layerGroup();
    const rings = stationRings(lat, lng);
    for (const d of WORLD_COPY_OFFSETS_DEG) {
      for (const circle of rings) {
        L.polyline(ringOutlines(shiftLines(circle.rings, d)), {
          renderer,
          pane: PANES.coverage.name,
          interactive: false,
          color: '#29b6f6',
          weight: 1.2,
          dashArray: '4 4',
        }).addTo(group);
      }
      L.circleMarker([lat, lng + d], {
        // In the interactive pane so its tooltip works above the packet markers' canvas.
        renderer: paneRenderer(map, PANES.satellites.name),
        pane: PANES.satellites.name,
        radius: 7,
        color: '#ffffff',
        weight: 2,
        fillColor: '#29b6f6',
        fillOpacity: 1,
      })
        .bindTooltip(`${station.name}@${station.userId}`)
        .addTo(group);
    }
    group.addTo(map);
    return () => {
      group.remove();
    };
  }, [map, lat, lng, station.name, station.userId]);

  useEffect(() => {
    const renderer = paneRenderer(map, PANES.satellites.name);
    const layers = L.layerGroup();
    for (const p of packets) {
      const powerGroup = txPowerGroup(p);
      for (const d of WORLD_COPY_OFFSETS_DEG) {
        L.circleMarker([p.satPos.lat, p.satPos.lng + d], {
          renderer,
          pane: PANES.satellites.name,
          radius: 4,
          color: '#1a1a1a',
          weight: 0.5,
          fillColor: TX_POWER_COLORS[powerGroup],
          fillOpacity: 0.9,
          bubblingMouseEvents: false,
        })
          .bindTooltip(`${p.satDisplayName} ${new Date(p.serverTime).toLocaleString()}`)
          .on('click', () => void navigateRef.current(`/packet/${p.id}`))
          .addTo(layers);
      }
    }
    layers.addTo(map);
    return () => {
      layers.remove();
    };
  }, [map, packets]);
  return null;
}
