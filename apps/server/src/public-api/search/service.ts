// GET /v1/search: satellites (name, display name, NORAD id) and stations (name) matching the text,
// SEARCH_RESULTS of each (repositories/public/search-reads.ts: trigram indexes for three
// characters or more, a bounded scan for shorter text).
import type { SearchResponse } from '@tinygs/contracts';
import type { AppContext } from '../../context';
import { searchSatellites, searchStations } from '../../repositories/public/search-reads';
import { toSearchResponse } from './mapper';

const SEARCH_RESULTS = 20;

export function searchService(ctx: AppContext) {
  return {
    async search(text: string): Promise<SearchResponse> {
      const [satellites, stations] = await Promise.all([
        searchSatellites(ctx.database, text, SEARCH_RESULTS),
        searchStations(ctx.database, text, SEARCH_RESULTS),
      ]);
      return toSearchResponse(satellites, stations);
    },
  };
}
