import { useQuery } from '@tanstack/react-query';
import {
  PacketDetailResponseSchema,
  PacketsInaResponseSchema,
  PacketsV2ResponseSchema,
} from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** GET /v2/packets, optionally for one satellite: latest packets plus templates by satellite. */
export function usePackets(satellite?: string) {
  return useQuery({
    queryKey: ['packets', satellite ?? null],
    queryFn: ({ signal }) => {
      const query = satellite ? `?satellite=${encodeURIComponent(satellite)}` : '';
      return api(`/v2/packets${query}`, PacketsV2ResponseSchema, { signal });
    },
  });
}

/** GET /v2/packetsIna?satellite=: the latest 100 and, when there are more, the first 100. */
export function useInactivePackets(satellite: string) {
  return useQuery({
    queryKey: ['packetsIna', satellite],
    queryFn: ({ signal }) =>
      api(`/v2/packetsIna?satellite=${encodeURIComponent(satellite)}`, PacketsInaResponseSchema, {
        signal,
      }),
  });
}

export function usePacket(id: string, inactive: boolean) {
  return useQuery({
    queryKey: ['packet', inactive, id],
    queryFn: ({ signal }) =>
      api(
        `/v1/${inactive ? 'packetIna' : 'packet'}/${encodeURIComponent(id)}`,
        PacketDetailResponseSchema,
        { signal },
      ),
    staleTime: Infinity,
  });
}
