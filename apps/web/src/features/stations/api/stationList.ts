// GET /v1/stations, the public station list: one query for every screen that shows it (the
// Stations page and the home page's world map).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StationListItem } from '@tinygs/contracts';
import { api } from '../../../lib/api';
import { arrayOf, checkStationListItem, parserOf } from '../../../lib/firstVisitChecks';

// The home page's map reads this list on the first visit: checked without zod (firstVisitChecks),
// as StationsResponseSchema would.
const StationListSchema = parserOf(arrayOf(checkStationListItem), 'the station list');

/**
 * The list, from `answer` when it was already asked for (the home page's start-up requests) or
 * from a new request.
 */
export async function readStationList(
  signal: AbortSignal,
  answer?: Promise<unknown>,
): Promise<StationListItem[]> {
  try {
    return answer
      ? StationListSchema.parse(await answer)
      : await api('/v1/stations', StationListSchema, { signal });
  } catch (err) {
    // SPEC.md section 8: list load failures are logged and the list stays empty.
    if (!signal.aborted) console.error('Loading stations failed', err);
    throw err;
  }
}

export const stationListQuery = queryOptions({
  queryKey: ['stations', 'all'],
  queryFn: ({ signal }) => readStationList(signal),
  retry: false,
});

export interface StationsState {
  stations: StationListItem[];
  loading: boolean;
  error: string | null;
}

export function useStations(): StationsState {
  const query = useQuery(stationListQuery);
  return {
    stations: query.data ?? [],
    loading: query.isPending,
    error: query.error ? query.error.message : null,
  };
}

/** The key of one user's station list; invalidate it after the user's stations change. */
export function userStationsQueryKey(userId: string | null) {
  return ['stations', 'user', userId] as const;
}

/** GET /v1/stations?userId=: one user's stations (User Console, the passes' station picker). */
export function useUserStations(userId: string | null) {
  return useQuery({
    queryKey: userStationsQueryKey(userId),
    queryFn: ({ signal }) =>
      api(`/v1/stations?userId=${encodeURIComponent(userId ?? '')}`, StationListSchema, {
        signal,
      }),
    enabled: userId !== null,
  });
}
