// The station list for maps and lists (GET /v1/stations): every station, from the shared build of
// read-models/station-list.ts, or one user's stations cut from the same build, prepared on first
// request and kept with it.
import type { StationListItem } from '@tinygs/contracts';
import type { AppContext } from '../../context';
import { stationListOf, type StationListBuild } from '../../read-models/station-list';
import { PreparedBody } from '../http-cache';

interface ByUser {
  /** each user's stations, serialised */
  text: Map<string, string>;
  prepared: Map<string, PreparedBody>;
}

function splitByUser(items: readonly StationListItem[]): ByUser {
  const lists = new Map<string, StationListItem[]>();
  for (const s of items) {
    const list = lists.get(s.userId);
    if (list) list.push(s);
    else lists.set(s.userId, [s]);
  }
  return {
    text: new Map([...lists].map(([u, list]) => [u, JSON.stringify(list)])),
    prepared: new Map(),
  };
}

export function stationsService(ctx: AppContext) {
  const stationList = stationListOf(ctx);
  const byUserOf = new WeakMap<StationListBuild, ByUser>();

  return {
    /** Every station, or `userId`'s stations (an empty list for a user without any). */
    async list(userId?: string): Promise<PreparedBody> {
      const build = await stationList.current();
      if (userId === undefined) return build.all;
      let byUser = byUserOf.get(build);
      if (!byUser) {
        byUser = splitByUser(build.items);
        byUserOf.set(build, byUser);
      }
      let doc = byUser.prepared.get(userId);
      if (!doc) {
        doc = PreparedBody.of(byUser.text.get(userId) ?? '[]');
        // Only users with stations are kept: the map is bounded by the list itself.
        if (byUser.text.has(userId)) byUser.prepared.set(userId, doc);
      }
      return doc;
    },
  };
}
