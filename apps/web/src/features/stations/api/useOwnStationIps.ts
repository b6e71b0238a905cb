// Ground Control for the owner wherever their stations are listed (User Console, Stations list):
// the lists carry no local_ip (SPEC.md section 3, Station map/list), so the owner's own stations
// are read once more in the owner's view, which has it. Only the signed-in owner's stations are
// asked for, a handful at most.
import { useQueries } from '@tanstack/react-query';
import { formatStationId, StationResponseSchema, type StationListItem } from '@tinygs/contracts';
import { useMemo } from 'react';
import { api } from '../../../lib/api';
import { useSession } from '../../../lib/session';

/** local_ip by station id, for the stations of the signed-in user that report one. */
export function useOwnStationIps(
  stations: readonly StationListItem[],
): ReadonlyMap<string, string> {
  const session = useSession();
  const own = useMemo(
    () => (session ? stations.filter((s) => s.userId === session.userId) : []),
    [stations, session],
  );
  return useQueries({
    queries: own.map((s) => {
      const id = formatStationId(s.name, s.userId);
      return {
        queryKey: ['station', id, 'owner-view', session?.userId],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          api(`/v1/station/${encodeURIComponent(id).replace('%40', '@')}`, StationResponseSchema, {
            auth: session,
            signal,
          }),
      };
    }),
    combine: (results) => {
      const ips = new Map<string, string>();
      for (const { data } of results) {
        if (data?.local_ip) ips.set(formatStationId(data.name, data.userId), data.local_ip);
      }
      return ips;
    },
  });
}
