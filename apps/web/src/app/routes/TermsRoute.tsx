import Stack from '@mui/material/Stack';
import { TermsPage } from '../../features/info/TermsPage';
import { StatisticsCards } from '../../features/statistics';

export default function TermsRoute() {
  return (
    <Stack spacing={3}>
      <TermsPage />
      <StatisticsCards />
    </Stack>
  );
}
