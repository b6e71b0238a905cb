import Stack from '@mui/material/Stack';
import { AboutPage } from '../../features/info/AboutPage';
import { StatisticsCards } from '../../features/statistics';

export default function AboutRoute() {
  return (
    <Stack spacing={3}>
      <AboutPage />
      <StatisticsCards />
    </Stack>
  );
}
