import { useQuery } from '@tanstack/react-query';
import { SatellitesResponseSchema, type Satellite } from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** Whole catalogue of one source; lists cut it client side so switching lists costs no request. */
export function useSatelliteCatalogue(source: '/v1/satellites' | '/v1/satellitesIna') {
  return useQuery({
    queryKey: ['satellites', source],
    queryFn: ({ signal }): Promise<Satellite[]> =>
      api(source, SatellitesResponseSchema, { signal }),
  });
}
