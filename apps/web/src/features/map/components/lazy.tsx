import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import type {
  LocationPickerProps,
  PacketMapProps,
  StationPacketsMapProps,
  StationsMapProps,
  WorldMapProps,
} from '../lib/types';

/** What a map shows while its code loads. */
function MapPlaceholder({ height = 400 }: { height?: number | string }): ReactElement {
  return <div aria-busy="true" style={{ height, background: '#0b1a2c' }} />;
}

// Leaflet, the world outline and SGP4 load with the first map that renders, never before.
function deferred<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const Inner = lazy(load);
  return function Deferred(props: P): ReactElement {
    const height = (props as { height?: number | string }).height;
    return (
      <Suspense fallback={<MapPlaceholder height={height} />}>
        <Inner {...props} />
      </Suspense>
    );
  };
}

let worldMapModule: Promise<{ default: ComponentType<WorldMapProps> }> | null = null;
const loadWorldMap = () => (worldMapModule ??= import('./WorldMap'));

/** Starts downloading the world map's code (Leaflet, outline, layers) without rendering it. */
export function preloadWorldMap(): void {
  void loadWorldMap().catch(() => {
    // Failed: the map's own render tries again and shows the error there.
    worldMapModule = null;
  });
}

export const WorldMap = deferred<WorldMapProps>(loadWorldMap);
export const PacketMap = deferred<PacketMapProps>(() => import('./PacketMap'));
export const StationPacketsMap = deferred<StationPacketsMapProps>(
  () => import('./StationPacketsMap'),
);
export const LocationPicker = deferred<LocationPickerProps>(() => import('./LocationPicker'));
export const StationsMap = deferred<StationsMapProps>(() => import('./StationsMap'));
