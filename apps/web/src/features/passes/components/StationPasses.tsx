// The station page's next 24 hours of passes (GET /v1/station/{id}/passes).
import Typography from '@mui/material/Typography';
import { Section } from '../../../components/Section';
import { useStationPasses } from '../api/passQueries';
import { PassTable } from './PassTable';

export const STATION_PASSES_TEXTS = {
  title: 'Next passes',
  loading: 'Computing passes...',
  error: 'Error loading passes',
  noBand:
    'This station has no band yet: passes are listed once auto-tune is on or it is tuned to a satellite.',
  none: 'No passes in the next 24 hours.',
} as const;

export function StationPasses({ apiPath }: { apiPath: string }) {
  const passes = useStationPasses(apiPath);
  const data = passes.data;
  let body;
  if (passes.isError) body = <Typography color="error">{STATION_PASSES_TEXTS.error}</Typography>;
  else if (!data)
    body = <Typography color="text.secondary">{STATION_PASSES_TEXTS.loading}</Typography>;
  else if (data.band === null) body = <Typography>{STATION_PASSES_TEXTS.noBand}</Typography>;
  else if (data.passes.length === 0) body = <Typography>{STATION_PASSES_TEXTS.none}</Typography>;
  else
    body = (
      <>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {`Satellites of the ${data.band} MHz band over the next 24 hours.`}
          {data.autoTune
            ? ' Auto-tune marks the passes it will be tuned to at their highest point.'
            : ''}
        </Typography>
        <PassTable passes={data.passes} label="Next passes over this station" />
      </>
    );
  return (
    <Section title={STATION_PASSES_TEXTS.title} id="station-passes">
      {body}
    </Section>
  );
}
