// A station's statistics and health (SPEC.md sections 2 and 9), read by the station page and, for
// the statistics, by the stations map's selection overlay: one query key per read.
import { useQuery } from '@tanstack/react-query';
import { StationHealthResponseSchema, StationStatisticsResponseSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';
import { stationApiPath } from './stationLoader';

/** GET /v1/station/{id}/statistics: packets per day and satellite for the last 30 days. */
export function useStationStatistics(stationId: string) {
  return useQuery({
    queryKey: ['station-statistics', stationId],
    queryFn: ({ signal }) =>
      api(`${stationApiPath(stationId)}/statistics`, StationStatisticsResponseSchema, { signal }),
  });
}

/** GET /v1/station/{id}/health?days=7|30. */
export function useStationHealth(stationId: string, days: '7' | '30') {
  return useQuery({
    queryKey: ['station-health', stationId, days],
    queryFn: ({ signal }) =>
      api(`${stationApiPath(stationId)}/health?days=${days}`, StationHealthResponseSchema, {
        signal,
      }),
  });
}
