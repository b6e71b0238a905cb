// The 30-day packet statistics of a station as a stacked bar chart (SPEC.md sections 2 and 9).
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { Section } from '../../../components/Section';
import { useStationStatistics } from '../api/stationReads';
import { CAN_DRAW_CANVAS } from '../lib/canDraw';
import { stackedDays } from '../lib/statsData';

const StatsChartCanvas = lazy(() => import('./StatsChartCanvas'));

export const STATS_ERROR_TEXT = 'Error loading statistics';

export function StationStats({ stationId, satellite }: { stationId: string; satellite: string }) {
  const stats = useStationStatistics(stationId);
  const data = useMemo(
    () => (stats.data ? stackedDays(stats.data, satellite) : null),
    [stats.data, satellite],
  );
  const total = data?.series.reduce((sum, s) => sum + s.counts.reduce((a, b) => a + b, 0), 0);
  let body;
  if (stats.isError) body = <Typography color="error">{STATS_ERROR_TEXT}</Typography>;
  else if (!data) body = <Typography color="text.secondary">Loading statistics...</Typography>;
  else if (!CAN_DRAW_CANVAS)
    body = <Typography>{`${total ?? 0} packets in the last 30 days.`}</Typography>;
  else
    body = (
      <Box sx={{ height: 300 }}>
        <Suspense fallback={null}>
          <StatsChartCanvas data={data} />
        </Suspense>
      </Box>
    );
  return (
    <Section title="Packets in the last 30 days" id="station-stats">
      {body}
    </Section>
  );
}
