import { useQuery } from '@tanstack/react-query';
import { NetworkStatisticsSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';

export function useNetworkStatistics() {
  return useQuery({
    queryKey: ['statistics'],
    queryFn: ({ signal }) => api('/v1/statistics', NetworkStatisticsSchema, { signal }),
  });
}
