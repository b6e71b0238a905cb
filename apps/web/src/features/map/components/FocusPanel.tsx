import type { StationListItem, WorldmapSatellite } from '@tinygs/contracts';
import { Box, IconButton, Link as MuiLink, Paper, Typography } from '@mui/material';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { LiveActivity } from '../lib/activity';
import type { FocusResult } from '../lib/worker/propagator';

function Close({ onClose }: { onClose: () => void }) {
  return (
    <IconButton
      size="small"
      aria-label="Close"
      onClick={onClose}
      sx={{ position: 'absolute', top: 2, right: 2 }}
    >
      &times;
    </IconButton>
  );
}

export function SatelliteFocusPanel({
  satellite,
  focus,
  onClose,
}: {
  satellite: WorldmapSatellite;
  focus: FocusResult | null;
  onClose: () => void;
}) {
  return (
    <Paper
      sx={{ p: 1.5, pr: 4, position: 'relative', minWidth: 220 }}
      data-testid="satellite-focus"
    >
      <Close onClose={onClose} />
      <MuiLink
        component={Link}
        to={`/satellite/${encodeURIComponent(satellite.name)}`}
        variant="subtitle1"
      >
        {satellite.displayName}
      </MuiLink>
      {focus ? (
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: 'auto 1fr',
            columnGap: 1,
            typography: 'body2',
          }}
        >
          <dt>Latitude</dt>
          <dd style={{ margin: 0 }}>{focus.lat.toFixed(2)}&deg;</dd>
          <dt>Longitude</dt>
          <dd style={{ margin: 0 }}>{focus.lng.toFixed(2)}&deg;</dd>
          <dt>Altitude</dt>
          <dd style={{ margin: 0 }}>{focus.altKm.toFixed(0)} km</dd>
          <dt>Footprint</dt>
          <dd style={{ margin: 0 }}>{focus.footprintRadiusKm.toFixed(0)} km radius</dd>
        </Box>
      ) : (
        <Typography variant="body2">TLE missing</Typography>
      )}
    </Paper>
  );
}

export function StationFocusPanel({
  station,
  activity,
  onClose,
}: {
  station: StationListItem;
  activity: LiveActivity;
  onClose: () => void;
}) {
  const id = `${station.name}@${station.userId}`;
  const receiving = useSyncExternalStore(activity.subscribe, () => activity.isReceiving(station));
  return (
    <Paper sx={{ p: 1.5, pr: 4, position: 'relative', minWidth: 220 }} data-testid="station-focus">
      <Close onClose={onClose} />
      <MuiLink component={Link} to={`/station/${id}`} variant="subtitle1">
        {id}
      </MuiLink>
      <Typography variant="body2">
        {station.status === 0 ? 'Offline' : receiving ? 'Receiving' : 'Online'}
      </Typography>
      {station.satDisplayName || station.satellite ? (
        <Typography variant="body2">
          Listening to {station.satDisplayName ?? station.satellite}
        </Typography>
      ) : null}
    </Paper>
  );
}
