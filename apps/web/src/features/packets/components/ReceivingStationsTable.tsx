import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatStationId, type StationInPacket } from '@tinygs/contracts';
import { formatNumber } from '../../../lib/format';

const timeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'short',
  timeStyle: 'medium',
});

/** usec_time is microseconds since the epoch; milliseconds are kept for ordering receptions. */
function receptionTime(usec: number): string {
  const ms = Math.floor(usec / 1000);
  return `${timeFormat.format(new Date(ms))}.${String(ms % 1000).padStart(3, '0')}`;
}

export function ReceivingStationsTable({ stations }: { stations: readonly StationInPacket[] }) {
  if (stations.length === 0) return <Typography>No station data for this packet.</Typography>;
  return (
    <TableContainer>
      <Table size="small" aria-label="Receiving stations">
        <TableHead>
          <TableRow>
            <TableCell>Station</TableCell>
            <TableCell align="right">Distance (km)</TableCell>
            <TableCell align="right">Elevation (°)</TableCell>
            <TableCell>Time</TableCell>
            <TableCell align="right">RSSI (dBm)</TableCell>
            <TableCell align="right">SNR (dB)</TableCell>
            <TableCell align="right">Doppler (Hz)</TableCell>
            <TableCell align="right">Frequency error (Hz)</TableCell>
            <TableCell>CRC</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {stations.map((station) => {
            const id = formatStationId(station.name, station.userId);
            return (
              <TableRow key={id}>
                <TableCell>
                  <Link component={RouterLink} to={`/station/${id}`}>
                    {station.name}
                  </Link>
                </TableCell>
                <TableCell align="right">{formatNumber(station.distance, 1)}</TableCell>
                <TableCell align="right">{formatNumber(station.elevation, 1)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {receptionTime(station.usec_time)}
                </TableCell>
                <TableCell align="right">{formatNumber(station.receptionParams.rssi, 1)}</TableCell>
                <TableCell align="right">{formatNumber(station.receptionParams.snr, 1)}</TableCell>
                <TableCell align="right">
                  {formatNumber(station.f_doppler ?? station.doppler, 0)}
                </TableCell>
                <TableCell align="right">
                  {formatNumber(station.receptionParams.frequency_error, 0)}
                </TableCell>
                <TableCell sx={{ color: station.crc_error ? 'error.main' : undefined }}>
                  {station.crc_error ? 'CRC error' : 'OK'}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
