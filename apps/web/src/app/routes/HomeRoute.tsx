import { lazy, Suspense, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import Stack from '@mui/material/Stack';
import { GetStarted, HomeIntro, useCarouselPhotos } from '../../features/home';
import { LoginLinkView } from '../../features/auth';
import { StatisticsCards, useNetworkStatistics } from '../../features/statistics';
import { MapPlaceholder, preloadWorldMap, WorldMap } from '../../features/map';
import { useStoredUserId } from '../../lib/session';
import { useDeferredUntil } from '../../lib/useDeferredUntil';

const MAP_HEIGHT = 'min(70vh, 640px)';

// Only needed once there are photos, which Home asks for after its first content.
const PhotoCarousel = lazy(() =>
  import('../../features/home/components/PhotoCarousel').then((m) => ({
    default: m.PhotoCarousel,
  })),
);

function HomeContent() {
  const userId = useStoredUserId();
  // The statistics cards are what makes / usable; the map (Leaflet, SGP4 worker, live stream)
  // and the photo carousel (satellite catalogue, zod) start once they are on screen.
  const statistics = useNetworkStatistics();
  const heavyPartsMayLoad = useDeferredUntil(!statistics.isPending);
  const photos = useCarouselPhotos(heavyPartsMayLoad);
  // The map's code starts downloading as soon as the cards show, not after the idle moment that
  // releases its render; its data was asked for at start-up (boot.ts).
  const cardsShown = !statistics.isPending;
  useEffect(() => {
    if (cardsShown) preloadWorldMap();
  }, [cardsShown]);
  return (
    <Stack spacing={3}>
      {!photos.isError && photos.data && photos.data.length > 0 ? (
        <Suspense fallback={null}>
          <PhotoCarousel photos={photos.data} />
        </Suspense>
      ) : null}
      <HomeIntro returning={userId !== null} />
      {heavyPartsMayLoad ? (
        <WorldMap height={MAP_HEIGHT} />
      ) : (
        <MapPlaceholder height={MAP_HEIGHT} />
      )}
      <StatisticsCards />
      <GetStarted />
    </Stack>
  );
}

export default function HomeRoute() {
  const [params] = useSearchParams();
  const loginToken = params.get('loginToken');
  const userId = params.get('userId');
  if (loginToken && userId) return <LoginLinkView loginToken={loginToken} userId={userId} />;
  return <HomeContent />;
}
