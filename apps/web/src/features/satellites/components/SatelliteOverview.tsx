import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SatelliteDetail } from '@tinygs/contracts';
import { StatusChip } from './StatusChip';
import { FactList } from '../../../components/FactList';
import { formatCount, formatDate, formatDateTime } from '../../../lib/format';
import { sanitizeHtml } from '../../../lib/sanitize';

/** Name, status, dates, totals and the team's HTML description (sanitised). */
export function SatelliteOverview({ satellite }: { satellite: SatelliteDetail }) {
  const description = useMemo(
    () => sanitizeHtml(satellite.longDescription || satellite.description),
    [satellite.longDescription, satellite.description],
  );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h1" component="h1" sx={{ wordBreak: 'break-word' }}>
          {satellite.displayName}
        </Typography>
        <StatusChip status={satellite.status} />
      </Stack>
      <FactList
        facts={[
          { label: 'Name', value: satellite.name },
          { label: 'Status', value: satellite.status },
          { label: 'Launch date', value: formatDate(satellite.launchDate) },
          { label: 'Last packet', value: formatDateTime(satellite.lastPacketTime) },
          { label: 'Confirmed packets', value: formatCount(satellite.totals.confirmedPackets) },
          {
            label: 'Packets received by stations',
            value: formatCount(satellite.totals.stationReceptions),
          },
        ]}
      />
      {description ? (
        <Box
          className="satellite-description"
          sx={{ '& img': { maxWidth: '100%', height: 'auto' } }}
          dangerouslySetInnerHTML={{ __html: description }}
        />
      ) : null}
    </Stack>
  );
}
