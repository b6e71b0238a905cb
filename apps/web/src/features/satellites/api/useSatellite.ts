import { useQuery } from '@tanstack/react-query';
import { SatelliteDetailResponseSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** GET /v1/satellite/{name} or /v1/satelliteIna/{name}. */
export function useSatellite(name: string, inactive: boolean) {
  return useQuery({
    queryKey: ['satellite', inactive, name],
    queryFn: ({ signal }) =>
      api(
        `/v1/${inactive ? 'satelliteIna' : 'satellite'}/${encodeURIComponent(name)}`,
        SatelliteDetailResponseSchema,
        { signal },
      ),
  });
}
