import { useQueries } from '@tanstack/react-query';
import { SatellitesResponseSchema, type Satellite } from '@tinygs/contracts';
import { api } from '../../../lib/api';
import type { CatalogueSource } from '../lib/lists';

export interface SatelliteCatalogue {
  data: Satellite[] | undefined;
  isPending: boolean;
  /** when the newest of the lists arrived (ms) */
  dataUpdatedAt: number;
}

/**
 * The catalogue a page reads, merged from its API lists; pages cut it client side so switching
 * lists costs no request. A list that fails is logged by the query cache and adds nothing.
 */
export function useSatelliteCatalogue(sources: readonly CatalogueSource[]): SatelliteCatalogue {
  return useQueries({
    queries: sources.map((source) => ({
      queryKey: ['satellites', source],
      queryFn: ({ signal }: { signal: AbortSignal }): Promise<Satellite[]> =>
        api(source, SatellitesResponseSchema, { signal }),
    })),
    combine: (results) => {
      const byName = new Map<string, Satellite>();
      for (const r of results) for (const s of r.data ?? []) byName.set(s.name, s);
      return {
        data: results.every((r) => r.isPending) ? undefined : [...byName.values()],
        isPending: results.some((r) => r.isPending),
        dataUpdatedAt: Math.max(0, ...results.map((r) => r.dataUpdatedAt)),
      };
    },
  });
}
