import { useMemo, useState } from 'react';
import Typography from '@mui/material/Typography';
import { txPowerGroup, type TxPowerGroupId } from '@tinygs/contracts';
import { usePackets } from './api/packetQueries';
import { PacketTable } from './components/PacketTable';
import { TxPowerGroupFilter } from './components/TxPowerGroupFilter';
import { countByTxPowerGroup, NO_PACKETS_TEXT } from './lib/txPower';
import { PageLoading } from '../../components/PageLoading';

/** /packets: the network's latest packets, filterable by transmit power group. */
export default function PacketsPage() {
  const { data, isPending, isError } = usePackets();
  const [group, setGroup] = useState<TxPowerGroupId | null>(null);
  const packets = useMemo(() => data?.packets ?? [], [data]);
  const groups = useMemo(() => countByTxPowerGroup(packets), [packets]);
  const shown = group === null ? packets : packets.filter((p) => txPowerGroup(p) === group);

  return (
    <>
      <Typography variant="h1" component="h1" gutterBottom>
        Last packets
      </Typography>
      {isPending ? (
        <PageLoading label="Loading packets" />
      ) : isError || packets.length === 0 ? (
        <Typography role="status">{NO_PACKETS_TEXT}</Typography>
      ) : (
        <>
          <TxPowerGroupFilter
            groups={groups}
            total={packets.length}
            value={group}
            onChange={setGroup}
          />
          <PacketTable packets={shown} linkBase="/packet" />
        </>
      )}
    </>
  );
}
