// Imported first by main.tsx, so it runs before React and the rest of the entry chunk are
// evaluated: the statistics request of / (what makes the page usable) is on the wire while the
// app is still starting, instead of waiting for the first render to ask for it.
import { createQueryClient } from '../lib/queryClient';
import { statisticsQuery } from '../features/statistics/api/statisticsQuery';

export const queryClient = createQueryClient();

if (window.location.pathname === '/') void queryClient.prefetchQuery(statisticsQuery);
