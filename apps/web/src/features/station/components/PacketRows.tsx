// The station's received packets, newest first; each row opens the packet page.
import { isCrcErrorRaw, isTestFrameRaw, type Packet } from '@tinygs/contracts';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { formatDateTime, formatNumber } from '../../../lib/format';

export const NO_PACKETS_TEXT = 'No packets yet.';

function modeText(p: Packet): string {
  const freq = `${formatNumber(p.freq, 3)} MHz`;
  if (p.mode === 'LoRa') return `LoRa ${freq} SF${p.sf ?? '?'} BW${p.bw ?? '?'} CR${p.cr ?? '?'}`;
  return `FSK ${freq} ${p.bitrate ?? '?'} kbps`;
}

export function PacketRows({ packets }: { packets: readonly Packet[] }) {
  if (packets.length === 0) return <Typography role="status">{NO_PACKETS_TEXT}</Typography>;
  return (
    <List dense aria-label="Received packets" disablePadding>
      {packets.map((p) => (
        <ListItem key={p.id} divider disableGutters>
          <ListItemText
            primary={
              <>
                <Link component={RouterLink} to={`/packet/${encodeURIComponent(p.id)}`}>
                  {formatDateTime(p.serverTime)}
                </Link>{' '}
                {p.satDisplayName}{' '}
                {isCrcErrorRaw(p.raw) && <Chip size="small" color="error" label="CRC ERROR" />}
                {isTestFrameRaw(p.raw) && <Chip size="small" color="warning" label="Test packet" />}
              </>
            }
            secondary={modeText(p)}
          />
        </ListItem>
      ))}
    </List>
  );
}
