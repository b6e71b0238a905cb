import { QueryCache, QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // SPEC.md section 8: list and map load failures are logged and the screen shows an empty list.
    queryCache: new QueryCache({
      onError: (error, query) => console.warn('Request failed', query.queryKey, error),
    }),
    defaultOptions: {
      queries: {
        // Catalogue data changes slowly; the live map streams over SSE instead of polling.
        staleTime: 60_000,
        retry: 1,
        refetchOnWindowFocus: false,
      },
    },
  });
}
