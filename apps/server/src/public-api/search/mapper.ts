// Search hits -> the search answer: satellites by name and status, stations as read.
import type { SearchResponse } from '@tinygs/contracts';

export function toSearchResponse(
  satellites: readonly { name: string; displayName: string; status: string }[],
  stations: SearchResponse['stations'],
): SearchResponse {
  return {
    satellites: satellites.map((s) => ({
      name: s.name,
      displayName: s.displayName,
      status: s.status as SearchResponse['satellites'][number]['status'],
    })),
    stations,
  };
}
