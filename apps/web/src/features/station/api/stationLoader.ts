// Station loading (SPEC.md sections 4, 7 and 8): idle -> loading -> loaded | failed, up to 3
// attempts, and kept for the whole session in the query cache, keyed by station id and viewer, so
// a station seen before opens at once.
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { STATION_FETCH_ATTEMPTS, StationResponseSchema, type StationFull } from '@tinygs/contracts';
import { useCallback, useMemo, useState } from 'react';
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

export function stationApiPath(stationId: string): string {
  // '@' is a legal path character; keeping it makes the URL read like the station id.
  return `/v1/station/${encodeURIComponent(stationId).replace('%40', '@')}`;
}

/** Owner fields depend on who asks, so the key carries the viewer the station was fetched for. */
export function stationQueryKey(stationId: string, viewer: string | null) {
  return ['station', stationId, 'viewer', viewer] as const;
}

/**
 * GET /v1/station/{id} as `session` sees it: the station page and the owner's station lists (their
 * local_ip) read a station through this, so each station and viewer is one entry in the cache.
 */
export function stationQuery(stationId: string, session: Session | null) {
  return queryOptions({
    queryKey: stationQueryKey(stationId, session?.userId ?? null),
    queryFn: async ({ signal }) => {
      try {
        return await api(stationApiPath(stationId), StationResponseSchema, {
          auth: session,
          signal,
        });
      } catch (error) {
        if (!signal.aborted) console.warn('Station load attempt failed', error);
        throw error;
      }
    },
  });
}

/** Drops every cached copy of a station (after it was deleted), whoever viewed it. */
export function forgetStation(client: QueryClient, stationId: string): void {
  client.removeQueries({ queryKey: ['station', stationId, 'viewer'] });
}

// DOMException is not an Error subclass everywhere, so errors are read by their fields.
function errorField(error: unknown, field: 'name' | 'message'): string {
  if (typeof error !== 'object' || error === null) return '';
  const value: unknown = (error as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
}

const isTimeout = (error: unknown) => errorField(error, 'name') === 'TimeoutError';

/** The text of a failed attempt while another one follows. */
function attemptErrorText(error: unknown): string {
  if (isTimeout(error)) return STATION_LOAD_TEXTS.timeout;
  return errorField(error, 'message') || STATION_LOAD_TEXTS.failed;
}

/** The text once the attempts are used up: a time-out must not promise another try. */
function finalErrorText(error: unknown): string {
  if (isTimeout(error)) return STATION_LOAD_TEXTS.failed;
  return errorField(error, 'message') || STATION_LOAD_TEXTS.failed;
}

export interface StationLoader extends StationLoadState {
  /** Stops the running request: failed with 'Request cancelled', no retry. */
  cancel(): void;
  reload(): void;
  /** Replaces the loaded station (after an edit) in the page and the cache. */
  update(station: StationFull): void;
}

/** GET /v1/station/{id}: up to STATION_FETCH_ATTEMPTS tries, back to back; a cancel ends at once. */
export function useStation(stationId: string, session: Session | null): StationLoader {
  const client = useQueryClient();
  const viewer = session?.userId ?? null;
  const queryKey = useMemo(() => stationQueryKey(stationId, viewer), [stationId, viewer]);
  const query = useQuery({
    ...stationQuery(stationId, session),
    queryKey,
    enabled: stationId !== '',
    // Cancelled requests are never retried by the query client; everything else is.
    retry: STATION_FETCH_ATTEMPTS - 1,
    retryDelay: 0,
    // Seen once, kept for the session: only Try again or a deletion asks the server again.
    staleTime: Infinity,
    gcTime: Infinity,
  });
  // The key the user cancelled; another station (or viewer) starts clean.
  const [cancelledKey, setCancelledKey] = useState<typeof queryKey | null>(null);

  const cancel = useCallback(() => {
    setCancelledKey(queryKey);
    void client.cancelQueries({ queryKey, exact: true });
  }, [client, queryKey]);
  const reload = useCallback(() => {
    setCancelledKey(null);
    void client.resetQueries({ queryKey, exact: true });
  }, [client, queryKey]);
  const update = useCallback(
    (station: StationFull) => client.setQueryData(queryKey, station),
    [client, queryKey],
  );

  let view: StationLoadState;
  if (query.data) view = { status: 'loaded', station: query.data, error: null };
  else if (!stationId) view = { status: 'idle', station: null, error: null };
  else if (cancelledKey === queryKey)
    view = { status: 'failed', station: null, error: STATION_LOAD_TEXTS.cancelled };
  else if (query.isError)
    view = { status: 'failed', station: null, error: finalErrorText(query.error) };
  else
    view = {
      status: 'loading',
      station: null,
      error: query.failureReason ? attemptErrorText(query.failureReason) : null,
    };
  return { ...view, cancel, reload, update };
}
