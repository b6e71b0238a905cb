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
