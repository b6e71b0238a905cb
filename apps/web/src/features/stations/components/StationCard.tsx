import { formatStationId, type StationFull, type StationListItem } from '@tinygs/contracts';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Link as MuiLink,
  Stack,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface StationCardProps {
  station: StationListItem | StationFull;
  /** Extra buttons next to Ground Control (the station page adds its owner actions). */
  actions?: ReactNode;
  /** the station's local IP when the card's station object does not carry it (owner lists) */
  localIp?: string | null;
  children?: ReactNode;
}

export function formatTime(ms: number | null | undefined): string {
  return typeof ms === 'number' ? new Date(ms).toLocaleString() : '-';
}

/** Only the owner's view of a station carries local_ip. */
function localIp(station: StationListItem | StationFull): string | null {
  return 'local_ip' in station && typeof station.local_ip === 'string' && station.local_ip !== ''
    ? station.local_ip
    : null;
}

export function StationCard({ station, actions, children, localIp: knownIp }: StationCardProps) {
  const id = formatStationId(station.name, station.userId);
  const online = station.status !== 0;
  const ip = localIp(station) ?? knownIp ?? null;
  const satellite = station.satDisplayName ?? station.satellite;
  return (
    <Card variant="outlined" data-testid="station-card">
      <CardContent>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', justifyContent: 'space-between' }}
        >
          <MuiLink
            component={Link}
            to={`/station/${id}`}
            variant="h6"
            underline="hover"
            sx={{ wordBreak: 'break-all' }}
          >
            {id}
          </MuiLink>
          <Chip
            size="small"
            color={online ? 'success' : 'default'}
            label={online ? 'Online' : 'Offline'}
          />
        </Stack>
        <Box
          component="dl"
          sx={{ m: 0, mt: 1, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1 }}
        >
          {!online && <Row label="Last seen" value={formatTime(station.lastSeen)} />}
          <Row label="Version" value={station.version == null ? '-' : String(station.version)} />
          <Row label="Satellite" value={satellite ?? '-'} />
        </Box>
        {children}
      </CardContent>
      {(ip || actions) && (
        <CardActions>
          {ip && (
            <Button
              size="small"
              variant="outlined"
              href={`http://${ip}`}
              target="_blank"
              rel="noopener noreferrer"
            >
              Ground Control
            </Button>
          )}
          {actions}
        </CardActions>
      )}
    </Card>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {value}
      </Typography>
    </>
  );
}
