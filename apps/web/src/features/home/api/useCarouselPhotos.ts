import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SatelliteSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';

export interface CarouselPhoto {
  src: string;
  caption: string;
  to: string;
}

const MAX_PHOTOS = 12;

// The station list carries no pictures, so the carousel shows the satellites' own images.
export function useCarouselPhotos() {
  return useQuery({
    queryKey: ['home', 'carousel'],
    queryFn: async ({ signal }): Promise<CarouselPhoto[]> => {
      const satellites = await api('/v1/satellites', z.array(SatelliteSchema), { signal });
      return satellites
        .filter((s) => s.images.length > 0)
        .sort((a, b) => (b.lastPacketTime ?? 0) - (a.lastPacketTime ?? 0))
        .slice(0, MAX_PHOTOS)
        .map((s) => ({
          src: s.images[0] ?? '',
          caption: s.displayName,
          to: `/satellite/${encodeURIComponent(s.name)}`,
        }));
    },
  });
}
