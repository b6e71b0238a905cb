import * as L from 'leaflet';

// Leaflet panes in drawing order. The outline sits below tilePane (z 200) so tiles cover it when
// they load; each marker family gets its own pane and therefore its own canvas, so redrawing
// 300 moving satellites every few seconds does not repaint 10,000 stations.
//
// padding: how far beyond the viewport a pane's canvas reaches (fraction of the view). Panes that
// rarely change draw a wide margin so fast panning shows no blank edge; the ping pane repaints on
// every animation frame, so it keeps its canvas small.
export const PANES = {
  outline: { name: 'world-outline', zIndex: 150, padding: 0.5, interactive: false },
  coverage: { name: 'coverage', zIndex: 410, padding: 0.5, interactive: false },
  stations: { name: 'stations', zIndex: 420, padding: 0.5, interactive: false },
  paths: { name: 'paths', zIndex: 430, padding: 0.5, interactive: false },
  /** the only pane with Leaflet-interactive markers (satellites, packet-map points) */
  satellites: { name: 'satellites', zIndex: 440, padding: 0.5, interactive: true },
  pings: { name: 'pings', zIndex: 450, padding: 0.05, interactive: false },
} as const;

export type PaneName = (typeof PANES)[keyof typeof PANES]['name'];

/** A canvas renderer bound to one pane, shared by all layers of that pane on one map. */
export function paneRenderer(map: L.Map, pane: PaneName): L.Canvas {
  const store = map as L.Map & { tinygsRenderers?: Map<string, L.Canvas> };
  store.tinygsRenderers ??= new Map();
  let renderer = store.tinygsRenderers.get(pane);
  if (!renderer) {
    const padding = Object.values(PANES).find((p) => p.name === pane)?.padding ?? 0.1;
    renderer = L.canvas({ pane, padding });
    store.tinygsRenderers.set(pane, renderer);
  }
  return renderer;
}
