// Leaflet panes in drawing order. The outline sits below tilePane (z 200) so tiles cover it when
// they load; each marker family gets its own pane and therefore its own canvas, so redrawing
// 300 moving satellites every few seconds does not repaint 10,000 stations.
export const PANES = {
  outline: { name: 'world-outline', zIndex: 150 },
  coverage: { name: 'coverage', zIndex: 410 },
  stations: { name: 'stations', zIndex: 420 },
  paths: { name: 'paths', zIndex: 430 },
  satellites: { name: 'satellites', zIndex: 440 },
  pings: { name: 'pings', zIndex: 450 },
} as const;

export type PaneKey = keyof typeof PANES;
