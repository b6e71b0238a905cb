// The satellites an owner can tune a station to (SPEC.md section 7): the Supported and the Balloon
// lists, each with its name and modem configurations.
import { useQueries } from '@tanstack/react-query';
import { SatellitesResponseSchema, type Satellite } from '@tinygs/contracts';
import { api } from '../../../lib/api';

export const OPERATE_SATELLITE_LISTS = [
  '/v1/satellites/?status=Supported',
  '/v1/satellites/?status=Balloon',
] as const;

export interface OperateSatellites {
  /** Supported first, then balloons; each list by display name. Empty while loading or failed. */
  satellites: Satellite[];
  loading: boolean;
}

const byDisplayName = (a: Satellite, b: Satellite) =>
  a.displayName.localeCompare(b.displayName, undefined, { sensitivity: 'base' });

export function useOperateSatellites(): OperateSatellites {
  return useQueries({
    queries: OPERATE_SATELLITE_LISTS.map((path) => ({
      queryKey: ['satellites', path],
      queryFn: ({ signal }: { signal: AbortSignal }): Promise<Satellite[]> =>
        api(path, SatellitesResponseSchema, { signal }),
    })),
    combine: (results) => ({
      // A list that failed to load is logged by the query cache and offers nothing (SPEC.md 8).
      satellites: results.flatMap((r) => [...(r.data ?? [])].sort(byDisplayName)),
      loading: results.some((r) => r.isPending),
    }),
  });
}
