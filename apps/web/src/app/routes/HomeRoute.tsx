import { lazy, Suspense, type ComponentProps } from 'react';
import { useSearchParams } from 'react-router';
import Stack from '@mui/material/Stack';
import { GetStarted, HomeIntro, useCarouselPhotos } from '../../features/home';
import { StatisticsCards, useNetworkStatistics } from '../../features/statistics';
import { WorldMap } from '../../features/map';
import { useStoredUserId } from '../../lib/session';
import { useDeferredUntil } from '../../lib/useDeferredUntil';
import { PageLoading } from '../../components/PageLoading';
import { lazyChunk } from '../../lib/lazyChunk';
import type { LoginLinkView as LoginLinkViewComponent } from '../../features/auth/components/LoginLinkView';

const MAP_HEIGHT = 'min(70vh, 640px)';

// Only a visit from a login link (?loginToken=...) shows it: not part of the first visit's code.
// It is that visit's screen, so it loads as the other screens do (a chunk that does not come is
// a loading error, not a spinner forever).
const LoginLinkView = lazyChunk<ComponentProps<typeof LoginLinkViewComponent>>(() =>
  import('../../features/auth/components/LoginLinkView').then((m) => ({
    default: m.LoginLinkView,
  })),
);

// Only needed once there are photos, which Home asks for after its first content.
const PhotoCarousel = lazy(() =>
  import('../../features/home/components/PhotoCarousel').then((m) => ({
    default: m.PhotoCarousel,
  })),
);

function HomeContent() {
  const userId = useStoredUserId();
  // The photo carousel (its photos, or the satellite catalogue and zod) starts once the cards are
  // on screen. The map renders at once: its data and code were asked for at start-up (boot.ts),
  // and it shows its placeholder until they are here.
  const statistics = useNetworkStatistics();
  const photosMayLoad = useDeferredUntil(!statistics.isPending);
  const photos = useCarouselPhotos(photosMayLoad);
  return (
    <Stack spacing={3}>
      {!photos.isError && photos.data && photos.data.length > 0 ? (
        <Suspense fallback={null}>
          <PhotoCarousel photos={photos.data} />
        </Suspense>
      ) : null}
      <HomeIntro returning={userId !== null} />
      <WorldMap height={MAP_HEIGHT} />
      <StatisticsCards />
      <GetStarted />
    </Stack>
  );
}

export default function HomeRoute() {
  const [params] = useSearchParams();
  const loginToken = params.get('loginToken');
  const userId = params.get('userId');
  if (loginToken && userId)
    return (
      <Suspense fallback={<PageLoading label="Logging in..." />}>
        <LoginLinkView loginToken={loginToken} userId={userId} />
      </Suspense>
    );
  return <HomeContent />;
}
