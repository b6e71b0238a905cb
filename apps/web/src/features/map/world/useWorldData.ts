import {
  StationListItemSchema,
  WorldmapSatelliteSchema,
  type StationListItem,
  type WorldmapSatellite,
} from '@tinygs/contracts';
import { useEffect, useState } from 'react';
import { api, apiText } from '../../../lib/api';
import { parseTleText, tleRecordsFor, type TleRecord } from './tleText';

export interface WorldData {
  satellites: WorldmapSatellite[];
  /** TLE per satellite, same order */
  tles: (TleRecord | null)[];
  stations: StationListItem[];
}

const EMPTY: WorldData = { satellites: [], tles: [], stations: [] };

// SPEC.md section 8: map load failures are logged and the map stays empty.
function logged<T>(what: string, fallback: T) {
  return (err: unknown): T => {
    // Leaving the page aborts the requests: that is not a failure worth reporting.
    if (err instanceof DOMException && err.name === 'AbortError') return fallback;
    console.error(`Loading ${what} failed`, err);
    return fallback;
  };
}

export function useWorldData(): WorldData | null {
  const [data, setData] = useState<WorldData | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    void Promise.all([
      api('/v1/satellitesWorldmap', WorldmapSatelliteSchema.array(), { signal }).catch(
        logged('map satellites', EMPTY.satellites),
      ),
      apiText('/v1/tles.txt', { signal }).catch(logged('TLEs', '')),
      api('/v1/stations', StationListItemSchema.array(), { signal }).catch(
        logged('stations', EMPTY.stations),
      ),
    ]).then(([satellites, tleText, stations]) => {
      if (signal.aborted) return;
      setData({ satellites, tles: tleRecordsFor(satellites, parseTleText(tleText)), stations });
    });
    return () => controller.abort();
  }, []);
  return data;
}

/** How often an open map asks for element sets again (the server refreshes them every few hours). */
export const TLE_RELOAD_MS = 15 * 60 * 1000;

/**
 * The map satellites' element sets, asked for again every `intervalMs` while the map is open: a
 * refresh on the server moves the satellites without a page reload. Starts with `data.tles`.
 */
export function useFreshTles(
  data: WorldData | null,
  intervalMs: number = TLE_RELOAD_MS,
): (TleRecord | null)[] {
  const [fresh, setFresh] = useState<{ base: WorldData; tles: (TleRecord | null)[] } | null>(null);
  useEffect(() => {
    if (!data) return;
    const controller = new AbortController();
    let last = JSON.stringify(data.tles);
    const timer = setInterval(() => {
      apiText('/v1/tles.txt', { signal: controller.signal })
        .then((text) => {
          const tles = tleRecordsFor(data.satellites, parseTleText(text));
          const key = JSON.stringify(tles);
          // An empty or broken answer keeps the sets the map has.
          if (key === last || tles.every((r) => r === null)) return;
          last = key;
          setFresh({ base: data, tles });
        })
        .catch(logged('TLEs', undefined));
    }, intervalMs);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [data, intervalMs]);
  return fresh && fresh.base === data ? fresh.tles : (data?.tles ?? []);
}
