import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { loadSchemas } from '../../../lib/lazySchemas';

export function useNetworkStatistics() {
  return useQuery({
    queryKey: ['statistics'],
    queryFn: async ({ signal }) => {
      const { StatisticsResponseSchema } = await loadSchemas();
      return api('/v1/statistics', StatisticsResponseSchema, { signal });
    },
  });
}
