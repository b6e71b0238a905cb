import { useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  OrbitViewer,
  SatelliteImages,
  SatelliteOverview,
  TleBlock,
  ElementSetFacts,
  useSatellite,
} from '../../features/satellites';
import {
  NO_PACKETS_TEXT,
  PacketTable,
  useInactivePackets,
  usePackets,
} from '../../features/packets';
import { SatellitePasses } from '../../features/passes';
import { TelemetryView } from '../../features/telemetry';
import { TelemetrySeries } from '../../features/telemetry-series';
import { PageLoading } from '../../components/PageLoading';
import { Section } from '../../components/Section';

export const SATELLITE_LOAD_ERROR = 'This satellite could not be loaded.';

function ActivePackets({ name }: { name: string }) {
  const { data, isPending } = usePackets(name);
  if (isPending) return <PageLoading label="Loading packets" />;
  // A failed load shows the empty text (SPEC.md section 8, "Packets failure").
  return <PacketTable packets={data?.packets ?? []} linkBase="/packet" />;
}

function InactivePackets({ name }: { name: string }) {
  const { data, isPending } = useInactivePackets(name);
  if (isPending) return <PageLoading label="Loading packets" />;
  if (!data) return <Typography role="status">{NO_PACKETS_TEXT}</Typography>;
  return (
    <Stack spacing={2}>
      <PacketTable packets={data.latest} linkBase="/packetIna" label="Latest packets" />
      {data.first && data.first.length > 0 ? (
        <>
          <Typography variant="h3" component="h3">
            First 100 packets
          </Typography>
          <PacketTable packets={data.first} linkBase="/packetIna" label="First 100 packets" />
        </>
      ) : null}
    </Stack>
  );
}

/** /satellite/:name and /satelliteIna/:name (SPEC.md section 2, Satellite page). */
export default function SatelliteRoute({ inactive }: { inactive: boolean }) {
  const { name = '' } = useParams();
  const { data: satellite, isPending, isError } = useSatellite(name, inactive);

  if (isPending) return <PageLoading label="Loading satellite" />;
  if (isError) return <Alert severity="error">{SATELLITE_LOAD_ERROR}</Alert>;

  return (
    <Stack spacing={2}>
      <SatelliteOverview satellite={satellite} />
      {satellite.tle ? (
        <Section id="satellite-tle" title="TLE">
          <Stack spacing={1.5}>
            <ElementSetFacts satellite={satellite} />
            <TleBlock tle={satellite.tle} />
          </Stack>
        </Section>
      ) : null}
      <Section id="satellite-telemetry" title="Last telemetry">
        {satellite.lastTelemetry ? (
          <TelemetryView template={satellite.webTemplate} parsed={satellite.lastTelemetry} />
        ) : (
          <Typography>No telemetry received yet.</Typography>
        )}
      </Section>
      <Section id="satellite-telemetry-series" title="Telemetry over time">
        <TelemetrySeries satellite={satellite.name} />
      </Section>
      {satellite.tle && !inactive ? (
        <Section id="satellite-passes" title="Next passes">
          <SatellitePasses satellite={satellite.name} />
        </Section>
      ) : null}
      <Section id="satellite-viewer" title="Orbit">
        <OrbitViewer satellite={satellite.name} />
      </Section>
      {satellite.images.length > 0 ? (
        <Section id="satellite-images" title="Images">
          <SatelliteImages images={satellite.images} name={satellite.displayName} />
        </Section>
      ) : null}
      <Section id="satellite-packets" title={inactive ? 'Latest packets' : 'Packets'}>
        {inactive ? (
          <InactivePackets name={satellite.name} />
        ) : (
          <ActivePackets name={satellite.name} />
        )}
      </Section>
    </Stack>
  );
}
