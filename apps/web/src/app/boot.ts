// Imported first by main.tsx, so it runs before React and the rest of the entry chunk are
// evaluated: the statistics request of / (what makes the page usable) and the live map's data are
// on the wire while the app is still starting, instead of waiting for the first render to ask.
import { createQueryClient } from '../lib/queryClient';
import { statisticsQuery } from '../features/statistics/api/statisticsQuery';
import { prefetchWorldData } from '../features/map/world/worldRequests';

export const queryClient = createQueryClient();

if (window.location.pathname === '/') {
  void queryClient.prefetchQuery(statisticsQuery);
  // The live map's stations, satellites and element sets: small answers the map would otherwise
  // ask for only once its code has loaded (the code itself waits for the cards: HomeRoute).
  prefetchWorldData();
}
