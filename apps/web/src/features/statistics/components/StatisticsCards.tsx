import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useNetworkStatistics } from '../api/useNetworkStatistics';
import { formatCount } from '../../../lib/format';

export const STATISTICS_ERROR = 'Error loading statistics';

/** The three network counters of GET /v1/statistics (SPEC.md section 2, Home). */
export function StatisticsCards() {
  const { data, isError } = useNetworkStatistics();
  if (isError) return <Alert severity="error">{STATISTICS_ERROR}</Alert>;
  const cards = [
    { label: 'Members', value: data?.members },
    { label: 'Active Stations', value: data?.stations },
    { label: 'Received Telemetry', value: data?.packets },
  ];
  return (
    <Box
      component="section"
      aria-label="Network statistics"
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}
    >
      {cards.map((card) => (
        <Paper key={card.label} variant="outlined" sx={{ p: 2, textAlign: 'center' }}>
          <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
            {card.value === undefined ? (
              <Skeleton sx={{ mx: 'auto' }} width="60%" />
            ) : (
              formatCount(card.value)
            )}
          </Typography>
          <Typography color="text.secondary">{card.label}</Typography>
        </Paper>
      ))}
    </Box>
  );
}
