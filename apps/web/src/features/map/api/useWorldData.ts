import { useQueries } from '@tanstack/react-query';
import type { StationListItem, WorldmapSatellite } from '@tinygs/contracts';
import { useMemo } from 'react';
import { api, apiText } from '../../../lib/api';
import { arrayOf, checkWorldmapSatellite, parserOf } from '../../../lib/firstVisitChecks';
import { readStationList, stationListQuery } from '../../stations';
import { parseTleText, tleRecordsFor, type TleRecord } from '../lib/tleText';
import { takeEarlyAnswer } from '../world/worldRequests';

// Checked without zod: the map is on the first visit of / (firstVisitChecks).
const SatellitesParser = parserOf(arrayOf(checkWorldmapSatellite), 'the map satellites');

export interface WorldData {
  satellites: WorldmapSatellite[];
  /** TLE per satellite, same order */
  tles: (TleRecord | null)[];
  stations: StationListItem[];
}

/** The world map's reads in the query cache (the station list is the stations feature's). */
export const WORLD_QUERY_KEYS = {
  satellites: ['satellitesWorldmap'],
  /** the element sets the map is first drawn with */
  tles: ['tles.txt'],
  /** the open map's later reloads of them (useFreshTles) */
  tlesReload: ['tles.txt', 'reload'],
} as const;

// SPEC.md section 8: map load failures are logged and the map stays empty.
function logged<T>(what: string, fallback: T) {
  return (err: unknown): T => {
    // Leaving the page aborts the requests: that is not a failure worth reporting.
    if (err instanceof DOMException && err.name === 'AbortError') return fallback;
    console.error(`Loading ${what} failed`, err);
    return fallback;
  };
}

/** Logs a failed read and passes the failure on to the query. */
export function loggedRead<T>(what: string, read: () => Promise<T>): Promise<T> {
  return read().catch((err: unknown) => {
    logged(what, undefined)(err);
    throw err;
  });
}

/** The map's satellites, their element sets and the stations; null until all three answered. */
export function useWorldData(): WorldData | null {
  const [satellites, tleText, stations] = useQueries({
    queries: [
      {
        queryKey: WORLD_QUERY_KEYS.satellites,
        // The first map of a visit takes the answer asked for at start-up (worldRequests.ts).
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          loggedRead('map satellites', () => {
            const early = takeEarlyAnswer('satellites');
            return early
              ? early.then((body) => SatellitesParser.parse(body))
              : api('/v1/satellitesWorldmap', SatellitesParser, { signal });
          }),
        retry: false,
      },
      {
        queryKey: WORLD_QUERY_KEYS.tles,
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          loggedRead('TLEs', () => takeEarlyAnswer('tles') ?? apiText('/v1/tles.txt', { signal })),
        retry: false,
      },
      {
        queryKey: stationListQuery.queryKey,
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          readStationList(signal, takeEarlyAnswer('stations') ?? undefined),
        retry: false,
      },
    ],
  });
  // A map is drawn once from answers of this visit: nothing while one of them is still on its way.
  const settled = [satellites, tleText, stations].every((q) => !q.isPending && !q.isFetching);
  return useMemo(() => {
    if (!settled) return null;
    const sats = satellites.data ?? [];
    return {
      satellites: sats,
      tles: tleRecordsFor(sats, parseTleText(tleText.data ?? '')),
      stations: stations.data ?? [],
    };
  }, [settled, satellites.data, tleText.data, stations.data]);
}
