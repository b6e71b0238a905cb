// Search and sort of the stations list. Pure so that 10,000 stations are filtered without React.
import type { StationListItem } from '@tinygs/contracts';

export const STATION_SORTS = ['name', 'status', 'lastPacket'] as const;
export type StationSort = (typeof STATION_SORTS)[number];

export const STATION_SORT_LABELS: Record<StationSort, string> = {
  name: 'Name',
  status: 'Status',
  lastPacket: 'Last packet',
};

const byName = (a: StationListItem, b: StationListItem) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
  a.userId.localeCompare(b.userId);

const COMPARE: Record<StationSort, (a: StationListItem, b: StationListItem) => number> = {
  name: byName,
  // Online first.
  status: (a, b) => b.status - a.status || byName(a, b),
  // Most recent first; stations that never received anything last.
  lastPacket: (a, b) =>
    (b.lastPacketTime ?? -Infinity) - (a.lastPacketTime ?? -Infinity) || byName(a, b),
};

/** Case-insensitive match on the station id, its name or the satellite it listens to. */
export function filterStations(
  stations: readonly StationListItem[],
  query: string,
): StationListItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...stations];
  return stations.filter((s) =>
    [`${s.name}@${s.userId}`, s.satellite ?? '', s.satDisplayName ?? ''].some((t) =>
      t.toLowerCase().includes(q),
    ),
  );
}

export function sortStations(stations: StationListItem[], sort: StationSort): StationListItem[] {
  return stations.sort(COMPARE[sort]);
}
