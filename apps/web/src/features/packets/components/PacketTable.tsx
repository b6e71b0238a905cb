import { Link as RouterLink, useNavigate } from 'react-router';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { isCrcErrorRaw, isTestFrameRaw, txPowerGroup, type Packet } from '@tinygs/contracts';
import { NO_PACKETS_TEXT, txPowerGroupLabel } from '../lib/txPower';
import { formatDateTime } from '../../../lib/format';

interface PacketTableProps {
  packets: readonly Packet[];
  /** '/packet' for live packets, '/packetIna' for an inactive satellite's */
  linkBase: '/packet' | '/packetIna';
  label?: string;
}

function Marker({ raw }: { raw: string }) {
  if (isCrcErrorRaw(raw)) return <Chip size="small" color="error" label="CRC ERROR" />;
  if (isTestFrameRaw(raw)) return <Chip size="small" color="warning" label="Test packet" />;
  return null;
}

export function PacketTable({ packets, linkBase, label = 'Packets' }: PacketTableProps) {
  const navigate = useNavigate();
  if (packets.length === 0) return <Typography role="status">{NO_PACKETS_TEXT}</Typography>;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell>Received</TableCell>
            <TableCell>Satellite</TableCell>
            <TableCell>Mode</TableCell>
            <TableCell align="right">Stations</TableCell>
            <TableCell>Transmit power</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {packets.map((packet) => {
            const to = `${linkBase}/${encodeURIComponent(packet.id)}`;
            return (
              <TableRow
                key={packet.id}
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => void navigate(to)}
              >
                <TableCell>
                  <Link component={RouterLink} to={to} onClick={(e) => e.stopPropagation()}>
                    {formatDateTime(packet.serverTime)}
                  </Link>
                </TableCell>
                <TableCell>{packet.satDisplayName}</TableCell>
                <TableCell>
                  {packet.mode}@{packet.freq}
                </TableCell>
                <TableCell align="right">{packet.stationNumber}</TableCell>
                <TableCell>
                  <Marker raw={packet.raw} />
                  {isCrcErrorRaw(packet.raw) ? null : txPowerGroupLabel(txPowerGroup(packet))}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
