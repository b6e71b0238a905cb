// The digest that names a station list by what a map draws of it (GET /sse/events `known`), without
// a schema library: the server and the web app's map worker compute it alike.
import type { StationListItem } from './entities';
import { formatStationId } from './station-ids';

export const STATION_LIST_DIGEST_HEX_LENGTH = 32;

/** What a map draws of one station (name and userId are its identity). */
export function stationShownFields(
  s: Pick<StationListItem, 'location' | 'status' | 'satellite' | 'satDisplayName'>,
): string {
  return JSON.stringify([
    s.location[0],
    s.location[1],
    s.status,
    s.satellite,
    s.satDisplayName ?? null,
  ]);
}

/**
 * The text whose SHA-256 digest names a station list by what a map draws of it (`known`): one line
 * per station, ordered by id, of its id and shown fields. Two lists with the same digest draw the
 * same markers, whatever their other fields (lastSeen, counters).
 */
export function stationListDigestText(list: readonly StationListItem[]): string {
  return list
    .map((s) => `${formatStationId(s.name, s.userId)} ${stationShownFields(s)}`)
    .sort()
    .join('\n');
}
