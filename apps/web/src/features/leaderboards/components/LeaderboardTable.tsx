import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { LeaderboardBoard, LeaderboardEntry, LeaderboardPeriod } from '@tinygs/contracts';
import { PageLoading } from '../../../components/PageLoading';
import { Section } from '../../../components/Section';
import { formatCount, formatNumber } from '../../../lib/format';
import { useLeaderboard } from '../api/leaderboardQueries';

export const LEADERBOARD_TEXTS = {
  empty: 'Nothing heard in this period yet.',
  failed: 'The leaderboard could not be loaded.',
} as const;

interface BoardInfo {
  title: string;
  subject: string;
  valueLabel: string;
  format: (value: number) => string;
}

export const BOARDS: Record<LeaderboardBoard, BoardInfo> = {
  packets: {
    title: 'Stations by confirmed packets',
    subject: 'Station',
    valueLabel: 'Confirmed packets',
    format: formatCount,
  },
  satellites: {
    title: 'Stations by satellites heard',
    subject: 'Station',
    valueLabel: 'Satellites',
    format: formatCount,
  },
  distance: {
    title: 'Stations by record distance',
    subject: 'Station',
    valueLabel: 'Distance (km)',
    format: (km) => formatNumber(km, 0),
  },
  'satellite-packets': {
    title: 'Satellites by packets',
    subject: 'Satellite',
    valueLabel: 'Packets',
    format: formatCount,
  },
};

function Subject({ entry }: { entry: LeaderboardEntry }) {
  if (entry.station)
    return (
      <Link component={RouterLink} to={`/station/${entry.station.id}`}>
        {entry.station.name}
      </Link>
    );
  if (entry.satellite)
    return (
      <Link component={RouterLink} to={`/satellite/${encodeURIComponent(entry.satellite.name)}`}>
        {entry.satellite.displayName}
      </Link>
    );
  return null;
}

/** One board as a titled table: rank, station or satellite (linked), value. */
export function LeaderboardTable({
  board,
  period,
}: {
  board: LeaderboardBoard;
  period: LeaderboardPeriod;
}) {
  const info = BOARDS[board];
  const { data, isPending, isError } = useLeaderboard(board, period);
  const id = `leaderboard-${board}`;
  return (
    <Section title={info.title} id={id}>
      {isPending ? (
        <PageLoading label={`Loading ${info.title.toLowerCase()}`} />
      ) : isError ? (
        <Typography role="alert">{LEADERBOARD_TEXTS.failed}</Typography>
      ) : data.entries.length === 0 ? (
        <Typography role="status">{LEADERBOARD_TEXTS.empty}</Typography>
      ) : (
        <Table size="small" aria-labelledby={id}>
          <TableHead>
            <TableRow>
              <TableCell align="right">#</TableCell>
              <TableCell>{info.subject}</TableCell>
              <TableCell align="right">{info.valueLabel}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.entries.map((entry) => (
              <TableRow key={entry.station?.id ?? entry.satellite?.name}>
                <TableCell align="right">{entry.rank}</TableCell>
                <TableCell>
                  <Subject entry={entry} />
                </TableCell>
                <TableCell align="right">{info.format(entry.value)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Section>
  );
}
