// The console body below the card: info panel, satellite filter, statistics, viewer, map, packets.
import type { StationFull } from '@tinygs/contracts';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Section } from '../../../components/Section';
import type { Session } from '../../../lib/session';
import { StationPacketsMap } from '../../map';
import { StationPasses } from '../../passes';
import { stationApiPath } from '../api/stationLoader';
import { useStationPackets } from '../api/stationPackets';
import { StationHealth } from './health/StationHealth';
import { CAN_DRAW_CANVAS } from '../lib/canDraw';
import { InfoPanel } from './InfoPanel';
import { PacketRows } from './PacketRows';
import { ALL_SATELLITES, SatelliteFilter } from './SatelliteFilter';
import { SatelliteViewer } from './SatelliteViewer';
import { StationStats } from './StationStats';

interface StationDetailsProps {
  station: StationFull;
  isOwner: boolean;
  session: Session | null;
}

export function StationDetails({ station, isOwner, session }: StationDetailsProps) {
  const [satellite, setSatellite] = useState(ALL_SATELLITES);
  const packets = useStationPackets(station.id, session);
  const shown = satellite
    ? packets.packets.filter((p) => p.satellite === satellite)
    : packets.packets;
  const viewerSatellite = satellite || station.satellite;

  return (
    <Stack spacing={3}>
      <InfoPanel station={station} isOwner={isOwner} />
      <SatelliteFilter packets={packets.packets} value={satellite} onChange={setSatellite} />
      <StationStats stationId={station.id} satellite={satellite} />
      <StationHealth stationId={station.id} createdAt={station.creationDate} />
      <StationPasses apiPath={stationApiPath(station.id)} />
      {viewerSatellite && (
        <Section title="Satellite viewer" id="station-viewer">
          <SatelliteViewer satellite={viewerSatellite} location={station.location} />
        </Section>
      )}
      <Section title="Packet map" id="station-map">
        {CAN_DRAW_CANVAS ? (
          <StationPacketsMap station={station} packets={shown} />
        ) : (
          <Typography color="text.secondary">The map cannot be drawn in this browser.</Typography>
        )}
      </Section>
      <Section title="Packets" id="station-packets">
        {packets.loading ? (
          <CircularProgress size={24} aria-label="Loading packets" />
        ) : (
          <PacketRows packets={shown} />
        )}
        {isOwner && packets.hasMore && (
          <Button
            sx={{ mt: 2 }}
            variant="outlined"
            onClick={() => void packets.loadMore()}
            disabled={packets.loadingMore}
          >
            {packets.loadingMore ? 'Loading...' : 'Load more'}
          </Button>
        )}
      </Section>
    </Stack>
  );
}
