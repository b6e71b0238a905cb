// Imported first by main.tsx, so it runs before React DOM and the rest of the entry chunk are
// evaluated: the statistics request of / (what makes the page usable), the live map's data and
// the map's code are on the wire while the app is still starting, instead of one after the other
// (entry, first render, data, map code, map).
import { createQueryClient } from '../lib/queryClient';
import { statisticsQuery } from '../features/statistics/api/statisticsQuery';
import { prefetchWorldData, preloadWorldMap } from '../features/map';

export const queryClient = createQueryClient();

if (window.location.pathname === '/') {
  void queryClient.prefetchQuery(statisticsQuery);
  // The live map's stations, satellites and element sets (small answers), and its code (Leaflet,
  // the world outline, the layers), which downloads and compiles off the main thread meanwhile.
  prefetchWorldData();
  preloadWorldMap();
}
