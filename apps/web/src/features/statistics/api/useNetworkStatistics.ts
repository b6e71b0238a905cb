import { useQuery } from '@tanstack/react-query';
import { statisticsQuery } from './statisticsQuery';

export function useNetworkStatistics() {
  return useQuery(statisticsQuery);
}
