import { StationListItemSchema, type StationListItem } from '@tinygs/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';

const StationListSchema = StationListItemSchema.array();

export interface StationsState {
  stations: StationListItem[];
  loading: boolean;
  error: string | null;
}

export function useStations(): StationsState {
  const [state, setState] = useState<StationsState>({ stations: [], loading: true, error: null });
  useEffect(() => {
    const controller = new AbortController();
    api('/v1/stations', StationListSchema, { signal: controller.signal })
      .then((stations) => setState({ stations, loading: false, error: null }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        // SPEC.md section 8: list load failures are logged and the list stays empty.
        console.error('Loading stations failed', err);
        setState({
          stations: [],
          loading: false,
          error: err instanceof Error ? err.message : String(err),
        });
      });
    return () => controller.abort();
  }, []);
  return state;
}
