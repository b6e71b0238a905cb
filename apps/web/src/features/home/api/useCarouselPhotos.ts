import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Satellite, StationPhoto } from '@tinygs/contracts';
import { api } from '../../../lib/api';
import { arrayOf, checkStationPhoto, parserOf } from '../../../lib/firstVisitChecks';
import { loadSchemas } from '../../../lib/lazySchemas';

// The photos are on the first visit of /: checked without zod (firstVisitChecks).
const PhotosParser = parserOf(arrayOf(checkStationPhoto), 'the recent photos');

export interface CarouselPhoto {
  src: string;
  caption: string;
  to: string;
}

export const CAROUSEL_MAX_PHOTOS = 12;

function stationPhotos(photos: StationPhoto[]): CarouselPhoto[] {
  return photos.map((p) => ({
    src: p.src,
    caption: p.stationId,
    to: `/station/${encodeURIComponent(p.stationId)}`,
  }));
}

function satellitePhotos(satellites: Satellite[]): CarouselPhoto[] {
  return satellites
    .filter((s) => s.images.length > 0)
    .sort((a, b) => (b.lastPacketTime ?? 0) - (a.lastPacketTime ?? 0))
    .slice(0, CAROUSEL_MAX_PHOTOS)
    .map((s) => ({
      src: s.images[0] ?? '',
      caption: s.displayName,
      to: `/satellite/${encodeURIComponent(s.name)}`,
    }));
}

/**
 * The approved station photos, newest first. A young network has none approved yet, so then the
 * carousel shows the satellites' own images; that list is fetched under the satellite catalogue's
 * query key, so opening a satellite list afterwards costs no request. `enabled` lets Home hold
 * the requests (and the schema chunk they need) until its first content is on screen.
 */
export function useCarouselPhotos(enabled = true) {
  const queryClient = useQueryClient();
  return useQuery({
    enabled,
    queryKey: ['carousel-photos'],
    queryFn: async ({ signal }) => {
      const photos = await api(`/v1/pictures?limit=${CAROUSEL_MAX_PHOTOS}`, PhotosParser, {
        signal,
      });
      if (photos.length > 0) return stationPhotos(photos);
      // Only a network without approved photos needs the catalogue's schema (and zod).
      const { SatellitesResponseSchema } = await loadSchemas();
      const satellites = await queryClient.fetchQuery({
        queryKey: ['satellites', '/v1/satellites'],
        queryFn: () => api('/v1/satellites', SatellitesResponseSchema, { signal }),
      });
      return satellitePhotos(satellites);
    },
  });
}
