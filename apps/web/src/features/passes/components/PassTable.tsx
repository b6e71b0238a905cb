// A list of passes (AOS, highest point, LOS with azimuths, duration, sunlight) as a table; the
// passes auto-tune is tuned to carry a chip.
import type { Pass, PassIllumination } from '@tinygs/contracts';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../../lib/format';

const ILLUMINATION_TEXTS: Record<PassIllumination, string> = {
  sunlit: 'Sunlit',
  eclipsed: 'Eclipsed',
  partly: 'Partly eclipsed',
};

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

function degrees(value: number): string {
  return `${Math.round(value)}°`;
}

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

export function PassTable(props: { passes: Pass[]; label: string; showSatellite?: boolean }) {
  const { passes, label, showSatellite = true } = props;
  return (
    <TableContainer>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {showSatellite && <TableCell>Satellite</TableCell>}
            <TableCell>AOS</TableCell>
            <TableCell>Highest</TableCell>
            <TableCell>LOS</TableCell>
            <TableCell>Duration</TableCell>
            <TableCell>Sunlight</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {passes.map((p) => (
            <TableRow key={`${p.satellite}-${p.aos}`} data-testid="pass-row">
              {showSatellite && (
                <TableCell>
                  <Link component={RouterLink} to={`/satellite/${encodeURIComponent(p.satellite)}`}>
                    {p.displayName}
                  </Link>
                  {p.autoTune && (
                    <Chip size="small" color="primary" label="Auto-tune" sx={{ ml: 1 }} />
                  )}
                </TableCell>
              )}
              <TableCell>
                {formatDateTime(p.aos)} · az {degrees(p.aosAzimuth)}
              </TableCell>
              <TableCell>
                {degrees(p.maxElevation)} at {time.format(p.maxElevationAt)} · az{' '}
                {degrees(p.maxElevationAzimuth)}
              </TableCell>
              <TableCell>
                {time.format(p.los)} · az {degrees(p.losAzimuth)}
              </TableCell>
              <TableCell>{duration(p.los - p.aos)}</TableCell>
              <TableCell>{ILLUMINATION_TEXTS[p.illumination]}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
