import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useNetworkStatistics } from '../api/useNetworkStatistics';

export const STATISTICS_ERROR = 'Error loading statistics';

const numberFormat = new Intl.NumberFormat('en-US');

/** The three network counters of GET /v1/statistics (SPEC.md section 2, Home). */
export function StatisticsCards() {
  const { data, isError, isPending } = useNetworkStatistics();
  if (isError) return <Alert severity="error">{STATISTICS_ERROR}</Alert>;
  const cards = [
    { label: 'Members', value: data?.members },
    { label: 'Active Stations', value: data?.stations },
    { label: 'Received Telemetry', value: data?.packets },
  ];
  return (
    <Grid container spacing={2} component="section" aria-label="Network statistics">
      {cards.map((card) => (
        <Grid key={card.label} size={{ xs: 12, sm: 4 }}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardContent sx={{ textAlign: 'center' }}>
              <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
                {isPending || card.value === undefined ? (
                  <Skeleton sx={{ mx: 'auto' }} width="60%" />
                ) : (
                  numberFormat.format(card.value)
                )}
              </Typography>
              <Typography color="text.secondary">{card.label}</Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
