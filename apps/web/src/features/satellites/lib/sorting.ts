import type { Satellite } from '@tinygs/contracts';

export type SortKey = 'displayName' | 'status' | 'confirmedPackets' | 'frames' | 'lastPacketTime';
export type SortDirection = 'asc' | 'desc';

function compareValues(a: Satellite, b: Satellite, key: SortKey): number {
  switch (key) {
    case 'displayName':
    case 'status':
      return a[key].localeCompare(b[key], undefined, { numeric: true, sensitivity: 'base' });
    case 'confirmedPackets':
    case 'frames':
      return a[key] - b[key];
    case 'lastPacketTime':
      return (a.lastPacketTime ?? 0) - (b.lastPacketTime ?? 0);
  }
}

/** Stable sort; ties keep catalogue order. */
export function sortSatellites(
  satellites: readonly Satellite[],
  key: SortKey,
  direction: SortDirection,
): Satellite[] {
  const sign = direction === 'asc' ? 1 : -1;
  return satellites
    .map((satellite, index) => ({ satellite, index }))
    .sort((a, b) => sign * compareValues(a.satellite, b.satellite, key) || a.index - b.index)
    .map(({ satellite }) => satellite);
}

/** One page of rows; rowsPerPage -1 means every row. */
export function pageOf<T>(rows: readonly T[], page: number, rowsPerPage: number): T[] {
  if (rowsPerPage < 0) return [...rows];
  return rows.slice(page * rowsPerPage, page * rowsPerPage + rowsPerPage);
}
