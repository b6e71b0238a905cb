import { useQuery } from '@tanstack/react-query';
import type { Satellite } from '@tinygs/contracts';
import { api } from '../../../lib/api';
import { loadSchemas } from '../../../lib/lazySchemas';

export interface CarouselPhoto {
  src: string;
  caption: string;
  to: string;
}

const MAX_PHOTOS = 12;

function toPhotos(satellites: Satellite[]): CarouselPhoto[] {
  return satellites
    .filter((s) => s.images.length > 0)
    .sort((a, b) => (b.lastPacketTime ?? 0) - (a.lastPacketTime ?? 0))
    .slice(0, MAX_PHOTOS)
    .map((s) => ({
      src: s.images[0] ?? '',
      caption: s.displayName,
      to: `/satellite/${encodeURIComponent(s.name)}`,
    }));
}

// The station list carries no pictures, so the carousel shows the satellites' own images. The
// query key is the satellite catalogue's, so opening a satellite list afterwards costs no request.
export function useCarouselPhotos() {
  return useQuery({
    queryKey: ['satellites', '/v1/satellites'],
    queryFn: async ({ signal }) => {
      const { SatellitesResponseSchema } = await loadSchemas();
      return api('/v1/satellites', SatellitesResponseSchema, { signal });
    },
    select: toPhotos,
  });
}
