// PLACEHOLDER, to be replaced by the station page and Station Console (SPEC.md section 2).
import { useParams } from 'react-router';
import Typography from '@mui/material/Typography';

export default function StationPage() {
  const { stationId = '' } = useParams();
  return (
    <Typography variant="h1" component="h1">
      {stationId}
    </Typography>
  );
}
