import 'leaflet/dist/leaflet.css';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@tinygs/contracts';
import type * as L from 'leaflet';
import { useEffect, useState, type ReactNode } from 'react';
import { GeoJSON, MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { MAP_MAX_ZOOM, MAP_MIN_ZOOM, tileSourceForZoom } from '../lib/config';
import { PANES } from '../lib/panes';
import { worldOutline } from '../lib/worldOutline';

export interface BaseMapProps {
  center?: readonly [number, number];
  zoom?: number;
  height?: number | string;
  children?: ReactNode;
  /** Clicks on the map itself (not on a marker). */
  onMapClick?: (e: L.LeafletMouseEvent) => void;
}

/** Every map of the app: canvas renderer, offline world outline, imagery or street tiles by zoom. */
export function BaseMap({
  center = MAP_DEFAULT_CENTER,
  zoom = MAP_DEFAULT_ZOOM,
  height = 480,
  children,
  onMapClick,
}: BaseMapProps) {
  return (
    <MapContainer
      center={[center[0], center[1]]}
      zoom={zoom}
      minZoom={MAP_MIN_ZOOM}
      maxZoom={MAP_MAX_ZOOM}
      preferCanvas
      worldCopyJump
      style={{ height, width: '100%', background: '#0b1a2c' }}
    >
      <Panes />
      <WorldOutline />
      <ZoomTiles />
      {onMapClick && <MapClick onClick={onMapClick} />}
      {children}
    </MapContainer>
  );
}

function Panes() {
  const map = useMap();
  // Panes must exist before any layer names them, so they are made during this render, before
  // the layers' effects run. Leaflet hit-tests canvas layers on the top-most canvas only, so every
  // pane but the satellites' lets the mouse through (stations do their own hit-testing).
  for (const { name, zIndex, interactive } of Object.values(PANES)) {
    if (map.getPane(name)) continue;
    const pane = map.createPane(name);
    pane.style.zIndex = String(zIndex);
    if (!interactive) pane.style.pointerEvents = 'none';
  }
  return null;
}

// Module constant: react-leaflet re-applies a style whose identity changes on every render.
const OUTLINE_STYLE: L.PathOptions = {
  color: '#7f9bb8',
  weight: 0.7,
  fillColor: '#1d3553',
  fillOpacity: 1,
};

function WorldOutline() {
  return (
    <GeoJSON
      data={worldOutline()}
      pane={PANES.outline.name}
      interactive={false}
      style={OUTLINE_STYLE}
    />
  );
}

function ZoomTiles() {
  const map = useMap();
  const [zoom, setZoom] = useState(() => map.getZoom());
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) });
  const source = tileSourceForZoom(zoom);
  return (
    <TileLayer
      key={source.url}
      url={source.url}
      attribution={source.attribution}
      maxNativeZoom={source.maxNativeZoom}
    />
  );
}

function MapClick({ onClick }: { onClick: (e: L.LeafletMouseEvent) => void }) {
  const map = useMap();
  useEffect(() => {
    map.on('click', onClick);
    return () => {
      map.off('click', onClick);
    };
  }, [map, onClick]);
  return null;
}
