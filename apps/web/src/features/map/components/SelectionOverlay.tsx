// What a selected station shows on the stations map: distance rings, its radiation diagram and
// the heat map of its recent receptions (both from GET /v1/station/{id}/statistics).
import { HEATMAP_CIRCLE_KM, formatStationId, type StationListItem } from '@tinygs/contracts';
import * as L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { useMap } from 'react-leaflet';
import { useStationStatistics } from '../../station';
import { PANES, paneRenderer } from '../lib/panes';
import { ringOutlines } from '../lib/geo';
import type { LatLng } from '../lib/types';
import {
  bucketBySector,
  heatmapPositions,
  radiationDrawing,
  statisticsPositions,
} from '../lib/radiation';
import { stationRings } from '../lib/stationRings';

export interface SelectionLayers {
  radiation: boolean;
  heatmap: boolean;
}

// A failed load is logged by the query cache and draws nothing.
function useStatisticsPositions(stationId: string): LatLng[] | null {
  const { data } = useStationStatistics(stationId);
  return useMemo(() => (data ? statisticsPositions(data) : null), [data]);
}

export function SelectionOverlay({
  station,
  layers,
}: {
  station: StationListItem;
  layers: SelectionLayers;
}) {
  const map = useMap();
  const [lat, lng] = station.location;
  const positions = useStatisticsPositions(formatStationId(station.name, station.userId));

  useEffect(() => {
    const renderer = paneRenderer(map, PANES.coverage.name);
    const opts = { renderer, pane: PANES.coverage.name, interactive: false };
    const group = L.layerGroup();
    for (const { rings } of stationRings(lat, lng)) {
      L.polyline(ringOutlines(rings), {
        ...opts,
        color: '#29b6f6',
        weight: 1.5,
        dashArray: '4 4',
      }).addTo(group);
    }
    group.addTo(map);
    return () => {
      group.remove();
    };
  }, [map, lat, lng]);

  useEffect(() => {
    if (!positions || !layers.radiation) return;
    const renderer = paneRenderer(map, PANES.coverage.name);
    const opts = { renderer, pane: PANES.coverage.name, interactive: false };
    const drawing = radiationDrawing({ lat, lng }, bucketBySector({ lat, lng }, positions));
    const group = L.layerGroup();
    for (const { rings } of drawing.circles) {
      L.polyline(ringOutlines(rings), {
        ...opts,
        color: '#ffffff',
        opacity: 0.5,
        weight: 0.8,
      }).addTo(group);
    }
    L.polyline(drawing.radials, { ...opts, color: '#ffffff', opacity: 0.4, weight: 0.8 }).addTo(
      group,
    );
    L.polygon(drawing.outline, {
      ...opts,
      color: '#ff9800',
      weight: 2,
      fillColor: '#ff9800',
      fillOpacity: 0.25,
    }).addTo(group);
    group.addTo(map);
    return () => {
      group.remove();
    };
  }, [map, lat, lng, positions, layers.radiation]);

  useEffect(() => {
    if (!positions || !layers.heatmap) return;
    const renderer = paneRenderer(map, PANES.coverage.name);
    const group = L.layerGroup();
    // Overlapping translucent discs add up: dense areas read as hot without a heat-map plugin.
    for (const p of heatmapPositions(positions)) {
      L.circle([p.lat, p.lng], {
        renderer,
        pane: PANES.coverage.name,
        interactive: false,
        radius: HEATMAP_CIRCLE_KM * 1000,
        stroke: false,
        fillColor: '#f44336',
        fillOpacity: 0.06,
      }).addTo(group);
    }
    group.addTo(map);
    return () => {
      group.remove();
    };
  }, [map, positions, layers.heatmap]);

  return null;
}
