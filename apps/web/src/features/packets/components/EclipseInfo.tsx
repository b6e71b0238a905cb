import type { PacketDetail } from '@tinygs/contracts';
import { FactList } from '../../../components/FactList';
import { formatNumber } from '../../../lib/format';

/** Sunlight or eclipse at reception, and the theoretical coverage (footprint) of the satellite. */
export function EclipseInfo({ packet }: { packet: PacketDetail }) {
  return (
    <FactList
      facts={[
        { label: 'Eclipse', value: packet.sunLit ? 'In sunlight' : 'In eclipse' },
        { label: 'Eclipse depth', value: `${formatNumber(packet.eclipseDepth, 1)}°` },
        {
          label: 'Theoretical coverage',
          value: `${formatNumber(packet.footPrint, 0)} km footprint`,
        },
      ]}
    />
  );
}
