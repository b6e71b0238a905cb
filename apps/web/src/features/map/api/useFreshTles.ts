// The open world map's element sets, asked for again every TLE_RELOAD_MS: a refresh on the server
// moves the satellites without a page reload. Until a reload brings different sets, the map draws
// the ones it was first drawn with (useWorldData).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiText } from '../../../lib/api';
import { parseTleText, tleRecordsFor, type TleRecord } from '../lib/tleText';
import { loggedRead, WORLD_QUERY_KEYS, type WorldData } from './useWorldData';

/** How often an open map asks for element sets again (the server refreshes them every few hours). */
export const TLE_RELOAD_MS = 15 * 60 * 1000;

/** An answer without a single element set (an empty file, a proxy's error page) is a failure. */
async function readReload(signal: AbortSignal): Promise<TleRecord[]> {
  const records = parseTleText(await apiText('/v1/tles.txt', { signal }));
  if (records.length === 0) throw new Error('The element set file holds no element sets');
  return records;
}

/**
 * The sets to draw `data`'s satellites with: `data.tles` until a reload answers with others.
 * A failed or empty reload keeps the sets the map has (a failed query keeps its last data).
 */
export function useFreshTles(
  data: WorldData | null,
  intervalMs: number = TLE_RELOAD_MS,
): (TleRecord | null)[] {
  // Its own key, not the first draw's: useWorldData shows nothing while its queries fetch, and a
  // reload must never take the drawn map away.
  const reload = useQuery({
    queryKey: WORLD_QUERY_KEYS.tlesReload,
    queryFn: ({ signal }) => loggedRead('TLEs', () => readReload(signal)),
    enabled: data !== null,
    // Nothing newer than the first draw yet: the first reload is one interval after it.
    initialData: null,
    staleTime: Infinity,
    refetchInterval: intervalMs,
    refetchIntervalInBackground: true,
    // A failed reload waits for the next one; a closed map forgets what it reloaded.
    retry: false,
    gcTime: 0,
  });
  const records = reload.data;
  return useMemo(() => {
    if (!data) return [];
    if (!records) return data.tles;
    const tles = tleRecordsFor(data.satellites, records);
    // The same sets (or none for these satellites) keep the array the map already propagates.
    if (tles.every((r) => r === null) || JSON.stringify(tles) === JSON.stringify(data.tles))
      return data.tles;
    return tles;
  }, [data, records]);
}
