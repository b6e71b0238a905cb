import { useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  EclipseInfo,
  JsonTree,
  PacketSummary,
  RadioParameters,
  RawDownload,
  ReceivingStationsTable,
  usePacket,
} from '../../features/packets';
import { TelemetryView } from '../../features/telemetry';
import { PacketMap } from '../../features/map';
import { HexView } from '../../components/HexView';
import { PageLoading } from '../../components/PageLoading';
import { Section } from '../../components/Section';

export const PACKET_LOAD_ERROR = 'This packet could not be loaded.';

/** /packet/:id and /packetIna/:id (SPEC.md section 2, Packet page). */
export default function PacketRoute({ inactive }: { inactive: boolean }) {
  const { id = '' } = useParams();
  const { data: packet, isPending, isError } = usePacket(id, inactive);

  if (isPending) return <PageLoading label="Loading packet" />;
  if (isError) return <Alert severity="error">{PACKET_LOAD_ERROR}</Alert>;

  return (
    <Stack spacing={2}>
      <Typography variant="h1" component="h1" sx={{ wordBreak: 'break-word' }}>
        {packet.name ?? `${packet.satDisplayName} packet`}
      </Typography>
      <Section id="packet-summary" title="Summary">
        <PacketSummary packet={packet} inactive={inactive} />
      </Section>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Section id="packet-radio" title="Radio parameters">
          <RadioParameters packet={packet} />
        </Section>
        <Section id="packet-eclipse" title="Satellite position">
          <EclipseInfo packet={packet} />
        </Section>
      </Stack>
      <Section id="packet-telemetry" title="Telemetry">
        <TelemetryView
          template={packet.template}
          parsed={packet.parsed}
          raw={packet.raw}
          packet={packet}
          unverified={packet.unverified === true}
        />
      </Section>
      <Section id="packet-raw" title="Raw data">
        <Stack spacing={2}>
          <div>
            <RawDownload raw={packet.raw} id={packet.id} />
          </div>
          <HexView raw={packet.raw} />
          {packet.parsed ? <JsonTree value={packet.parsed} /> : null}
        </Stack>
      </Section>
      <Section id="packet-map" title="Map">
        <PacketMap packet={packet} />
      </Section>
      <Section id="packet-stations" title="Receiving stations">
        <ReceivingStationsTable stations={packet.stations} />
      </Section>
    </Stack>
  );
}
