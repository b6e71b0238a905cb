// A station's packets (SPEC.md sections 6, 7 and 9): the newest page for everyone, older pages
// (?before=) for the owner with the session headers, at most 3 page requests per 10 s at full speed.
import { useQuery } from '@tanstack/react-query';
import {
  PACKETS_PAGE_SIZE,
  PACKET_PAGING_BURST_LIMIT,
  PACKET_PAGING_BURST_WINDOW_MS,
  PACKET_PAGING_DELAY_MS,
  StationPacketsResponseSchema,
  type Packet,
} from '@tinygs/contracts';
import { useCallback, useRef, useState } from 'react';
import { api } from '../../../lib/api';
import type { Session } from '../../../lib/session';

/**
 * Paging brake: a request that would be the 4th (or later) within 10 s waits 11 s first, so a
 * held-down Load more cannot hammer the server.
 */
export function createPagingLimiter(now: () => number = Date.now) {
  let recent: number[] = [];
  return async function beforeRequest(): Promise<void> {
    const t = now();
    recent = recent.filter((at) => t - at < PACKET_PAGING_BURST_WINDOW_MS);
    if (recent.length >= PACKET_PAGING_BURST_LIMIT) {
      await new Promise((resolve) => setTimeout(resolve, PACKET_PAGING_DELAY_MS));
    }
    recent.push(now());
  };
}

function packetsPath(stationId: string, before?: number): string {
  const query = new URLSearchParams({ station: stationId });
  if (before !== undefined) query.set('before', String(before));
  return `/v1/packets?${query.toString().replace('%40', '@')}`;
}

export interface StationPackets {
  packets: Packet[];
  loading: boolean;
  failed: boolean;
  /** true while an older page may exist */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): Promise<void>;
}

export function useStationPackets(stationId: string, session: Session | null): StationPackets {
  const first = useQuery({
    queryKey: ['station-packets', stationId],
    queryFn: ({ signal }) => api(packetsPath(stationId), StationPacketsResponseSchema, { signal }),
    enabled: stationId !== '',
  });
  const [older, setOlder] = useState<{ stationId: string; pages: Packet[][] }>({
    stationId,
    pages: [],
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const limiter = useRef(createPagingLimiter());

  const pages = older.stationId === stationId ? older.pages : [];
  const packets = [...(first.data ?? []), ...pages.flat()];
  const lastPage = pages.length > 0 ? pages[pages.length - 1] : first.data;
  const hasMore = (lastPage?.length ?? 0) >= PACKETS_PAGE_SIZE;
  const oldest = packets.length > 0 ? packets[packets.length - 1]?.serverTime : undefined;

  const loadMore = useCallback(async () => {
    if (oldest === undefined || loadingMore) return;
    setLoadingMore(true);
    try {
      await limiter.current();
      const page = await api(packetsPath(stationId, oldest), StationPacketsResponseSchema, {
        auth: session,
      });
      setOlder((prev) => ({
        stationId,
        pages: [...(prev.stationId === stationId ? prev.pages : []), page],
      }));
    } catch (error) {
      console.warn('Loading older packets failed', error);
    } finally {
      setLoadingMore(false);
    }
  }, [oldest, loadingMore, stationId, session]);

  return {
    packets,
    loading: first.isPending && stationId !== '',
    failed: first.isError,
    hasMore,
    loadingMore,
    loadMore,
  };
}
