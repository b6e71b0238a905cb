import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import type { PacketDetail } from '@tinygs/contracts';
import { FactList, type Fact } from '../../../components/FactList';
import { formatDateTime } from '../../../lib/format';
import { txPowerMw } from '../lib/txPower';

export function PacketSummary({ packet, inactive }: { packet: PacketDetail; inactive: boolean }) {
  const satellitePath = `${inactive ? '/satelliteIna' : '/satellite'}/${encodeURIComponent(packet.satellite)}`;
  const power = txPowerMw(packet);
  const facts: Fact[] = [
    {
      label: 'Satellite',
      value: (
        <Link component={RouterLink} to={satellitePath}>
          {packet.satDisplayName}
        </Link>
      ),
    },
    { label: 'Received', value: formatDateTime(packet.serverTime) },
    { label: 'Stations', value: packet.stations.length || packet.stationNumber },
    { label: 'NORAD', value: packet.norad },
  ];
  if (power !== null) facts.push({ label: 'Transmit power', value: `${power} mW` });
  return <FactList facts={facts} />;
}
