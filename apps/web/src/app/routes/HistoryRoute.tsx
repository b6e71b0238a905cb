import Stack from '@mui/material/Stack';
import { HistoryPage } from '../../features/info/HistoryPage';
import { StatisticsCards } from '../../features/statistics';

export default function HistoryRoute() {
  return (
    <Stack spacing={3}>
      <HistoryPage />
      <StatisticsCards />
    </Stack>
  );
}
