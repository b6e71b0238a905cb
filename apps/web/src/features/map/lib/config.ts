// Tile sources of every map in the app. Override at build time with VITE_MAP_IMAGERY_URL /
// VITE_MAP_STREETS_URL (and the matching *_ATTRIBUTION) to point at a self-hosted tile server.
import { MAP_IMAGERY_MAX_ZOOM } from '@tinygs/contracts';

export interface TileSource {
  url: string;
  attribution: string;
  maxNativeZoom: number;
}

const env = import.meta.env as Record<string, string | undefined>;

export const IMAGERY_TILES: TileSource = {
  url:
    env.VITE_MAP_IMAGERY_URL ??
    'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
  attribution:
    env.VITE_MAP_IMAGERY_ATTRIBUTION ??
    'Tiles &copy; Esri &mdash; Source: Esri, Maxar, Earthstar Geographics, and the GIS User Community',
  maxNativeZoom: 18,
};

export const STREET_TILES: TileSource = {
  url: env.VITE_MAP_STREETS_URL ?? 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution:
    env.VITE_MAP_STREETS_ATTRIBUTION ??
    '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  maxNativeZoom: 19,
};

/** Imagery reads well zoomed out; street names only matter once zoomed in. */
export function tileSourceForZoom(zoom: number): TileSource {
  return zoom <= MAP_IMAGERY_MAX_ZOOM ? IMAGERY_TILES : STREET_TILES;
}

export const MAP_MIN_ZOOM = 1;
export const MAP_MAX_ZOOM = 18;
