// Pass predictions (GET /v1/station/{id}/passes, GET /v1/satellite/{name}/passes?lat=&lng=):
// computed by the server, kept a minute.
import { useQuery } from '@tanstack/react-query';
import { SatellitePassesResponseSchema, StationPassesResponseSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** The next 24 hours of passes over a station; `apiPath` is the station's /v1/station/{id}. */
export function useStationPasses(apiPath: string) {
  return useQuery({
    queryKey: ['station-passes', apiPath],
    queryFn: ({ signal }) => api(`${apiPath}/passes`, StationPassesResponseSchema, { signal }),
    staleTime: 60_000,
  });
}

/** A satellite's passes over a place; off until a place is given. */
export function useSatellitePasses(satellite: string, place: [number, number] | null) {
  return useQuery({
    queryKey: ['satellite-passes', satellite, place],
    queryFn: ({ signal }) =>
      api(
        `/v1/satellite/${encodeURIComponent(satellite)}/passes?lat=${place?.[0]}&lng=${place?.[1]}`,
        SatellitePassesResponseSchema,
        { signal },
      ),
    enabled: place !== null,
    staleTime: 60_000,
  });
}
