// Station loading (SPEC.md sections 4, 7 and 8): idle -> loading -> loaded | failed, up to 3
// attempts, and a per-session cache keyed by station id so a station seen before opens at once.
import { STATION_FETCH_ATTEMPTS, StationResponseSchema, type StationFull } from '@tinygs/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../../lib/api';
import type { Session } from '../../../lib/session';

export const STATION_LOAD_TEXTS = {
  cancelled: 'Request cancelled',
  timeout: 'Request timeout - trying again...',
  failed: 'Error loading station data',
} as const;

export type StationLoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';
export interface StationLoadState {
  status: StationLoadStatus;
  station: StationFull | null;
  /** the latest attempt's error text; null once loaded */
  error: string | null;
}

// Owner fields depend on who asks, so an entry remembers the viewer it was fetched for.
const cache = new Map<string, { viewer: string | null; station: StationFull }>();

export function cachedStation(stationId: string, viewer: string | null): StationFull | null {
  const entry = cache.get(stationId);
  return entry && entry.viewer === viewer ? entry.station : null;
}

export function rememberStation(station: StationFull, viewer: string | null): void {
  cache.set(station.id, { viewer, station });
}

export function forgetStation(stationId: string): void {
  cache.delete(stationId);
}

export function stationApiPath(stationId: string): string {
  // '@' is a legal path character; keeping it makes the URL read like the station id.
  return `/v1/station/${encodeURIComponent(stationId).replace('%40', '@')}`;
}

class CancelledError extends Error {}

// DOMException is not an Error subclass everywhere, so errors are read by their fields.
function errorField(error: unknown, field: 'name' | 'message'): string {
  if (typeof error !== 'object' || error === null) return '';
  const value: unknown = (error as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
}

function isAbort(error: unknown): boolean {
  return errorField(error, 'name') === 'AbortError';
}

function attemptErrorText(error: unknown): string {
  if (errorField(error, 'name') === 'TimeoutError') return STATION_LOAD_TEXTS.timeout;
  return errorField(error, 'message') || STATION_LOAD_TEXTS.failed;
}

/** GET /v1/station/{id} with up to STATION_FETCH_ATTEMPTS tries; a cancel ends at once. */
export async function fetchStation(
  stationId: string,
  session: Session | null,
  signal: AbortSignal,
  onAttemptFailed: (text: string) => void,
): Promise<StationFull> {
  let lastText: string = STATION_LOAD_TEXTS.failed;
  for (let attempt = 1; attempt <= STATION_FETCH_ATTEMPTS; attempt += 1) {
    try {
      return await api(stationApiPath(stationId), StationResponseSchema, {
        auth: session,
        signal,
      });
    } catch (error) {
      if (signal.aborted || isAbort(error)) throw new CancelledError(STATION_LOAD_TEXTS.cancelled);
      console.warn(`Station load attempt ${attempt} failed`, error);
      lastText = attemptErrorText(error);
      if (attempt < STATION_FETCH_ATTEMPTS) onAttemptFailed(lastText);
      // After the last attempt nothing is tried again: a time-out must not say so.
      else if (lastText === STATION_LOAD_TEXTS.timeout) lastText = STATION_LOAD_TEXTS.failed;
    }
  }
  throw new Error(lastText);
}

interface KeyedState extends StationLoadState {
  key: string;
}

export interface StationLoader extends StationLoadState {
  /** Stops the running request: failed with 'Request cancelled', no retry. */
  cancel(): void;
  reload(): void;
  /** Replaces the loaded station (after an edit) in the page and the cache. */
  update(station: StationFull): void;
}

export function useStation(stationId: string, session: Session | null): StationLoader {
  const viewer = session?.userId ?? null;
  const [generation, setGeneration] = useState(0);
  const key = `${stationId}|${viewer ?? ''}|${generation}`;
  const [state, setState] = useState<KeyedState>({
    key: '',
    status: 'idle',
    station: null,
    error: null,
  });
  const controller = useRef<AbortController | null>(null);
  const sessionRef = useRef(session);
  useEffect(() => {
    sessionRef.current = session;
  }, [session]);

  useEffect(() => {
    if (!stationId || cachedStation(stationId, viewer)) return;
    const own = new AbortController();
    controller.current = own;
    fetchStation(stationId, sessionRef.current, own.signal, (text) =>
      setState({ key, status: 'loading', station: null, error: text }),
    ).then(
      (station) => {
        rememberStation(station, viewer);
        setState({ key, status: 'loaded', station, error: null });
      },
      (error: unknown) => {
        // A request stopped because the page went away (or changed station) reports nothing.
        if (error instanceof CancelledError && controller.current !== own) return;
        const text = error instanceof Error ? error.message : STATION_LOAD_TEXTS.failed;
        setState({ key, status: 'failed', station: null, error: text });
      },
    );
    return () => {
      if (controller.current === own) controller.current = null;
      own.abort();
    };
  }, [key, stationId, viewer]);

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reload = useCallback(() => {
    forgetStation(stationId);
    setGeneration((g) => g + 1);
  }, [stationId]);
  const update = useCallback(
    (station: StationFull) => {
      rememberStation(station, viewer);
      setState({ key, status: 'loaded', station, error: null });
    },
    [key, viewer],
  );

  let view: StationLoadState;
  if (state.key === key) view = state;
  else {
    const cached = stationId ? cachedStation(stationId, viewer) : null;
    view = cached
      ? { status: 'loaded', station: cached, error: null }
      : { status: stationId ? 'loading' : 'idle', station: null, error: null };
  }
  return { ...view, cancel, reload, update };
}
