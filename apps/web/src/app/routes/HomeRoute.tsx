import { useSearchParams } from 'react-router';
import Stack from '@mui/material/Stack';
import { GetStarted, HomeIntro, PhotoCarousel, useCarouselPhotos } from '../../features/home';
import { LoginLinkView } from '../../features/auth';
import { StatisticsCards } from '../../features/statistics';
import { WorldMap } from '../../features/map';
import { useStoredUserId } from '../../lib/session';

function HomeContent() {
  const userId = useStoredUserId();
  const photos = useCarouselPhotos();
  return (
    <Stack spacing={3}>
      {photos.isError ? null : <PhotoCarousel photos={photos.data ?? []} />}
      <HomeIntro returning={userId !== null} />
      <WorldMap height="min(70vh, 640px)" />
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
