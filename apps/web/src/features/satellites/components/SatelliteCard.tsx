import { Link as RouterLink } from 'react-router';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Satellite } from '@tinygs/contracts';
import { StatusChip } from './StatusChip';
import { configurationLabels } from '../lib/filters';
import { formatCount, formatDate, formatDateTime } from '../../../lib/format';

interface SatelliteCardProps {
  satellite: Satellite;
  to: string;
  showLaunchDate: boolean;
}

export function SatelliteCard({ satellite, to, showLaunchDate }: SatelliteCardProps) {
  const image = satellite.images[0];
  return (
    <Card variant="outlined" component="article" sx={{ height: '100%' }}>
      <CardActionArea
        component={RouterLink}
        to={to}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        {image ? (
          <CardMedia
            component="img"
            height="160"
            image={image}
            alt=""
            loading="lazy"
            sx={{ objectFit: 'contain', bgcolor: 'action.hover' }}
          />
        ) : null}
        <CardContent sx={{ flexGrow: 1 }}>
          <Stack direction="row" spacing={1} sx={{ mb: 1, justifyContent: 'space-between' }}>
            <Typography variant="body2" color="text.secondary">
              {formatCount(satellite.confirmedPackets)} packets
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {formatCount(satellite.frames)} frames
            </Typography>
          </Stack>
          <Typography variant="h3" component="h2" gutterBottom>
            {satellite.displayName}
          </Typography>
          {satellite.description ? (
            <Typography variant="body2" sx={{ mb: 1 }}>
              {satellite.description}
            </Typography>
          ) : null}
          <Typography variant="body2" color="text.secondary">
            Last packet: {formatDateTime(satellite.lastPacketTime)}
          </Typography>
          {showLaunchDate ? (
            <Typography variant="body2" color="text.secondary">
              Launch date: {formatDate(satellite.launchDate)}
            </Typography>
          ) : null}
          <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }}>
            {configurationLabels(satellite).map((label) => (
              <Chip key={label} size="small" variant="outlined" label={label} />
            ))}
            <StatusChip status={satellite.status} />
          </Stack>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
