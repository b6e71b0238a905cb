// Ground Control for the owner wherever their stations are listed (User Console, Stations list):
// the lists carry no local_ip (SPEC.md section 3, Station map/list), so the owner's own stations
// are read once more in the owner's view, which has it. Only the signed-in owner's stations are
// asked for, a handful at most, under the station page's key (stationQuery): one cache entry per
// station and viewer, dropped with the station when it is deleted.
import { useQueries } from '@tanstack/react-query';
import { formatStationId, type StationListItem } from '@tinygs/contracts';
import { useMemo } from 'react';
import { useSession } from '../../../lib/session';
import { stationQuery } from '../../station';

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
    queries: own.map((s) => stationQuery(formatStationId(s.name, s.userId), session)),
    combine: (results) => {
      const ips = new Map<string, string>();
      for (const { data } of results) {
        if (data?.local_ip) ips.set(formatStationId(data.name, data.userId), data.local_ip);
      }
      return ips;
    },
  });
}
