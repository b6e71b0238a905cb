import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { Satellite } from '@tinygs/contracts';
import { SATELLITE_TABLE_PAGE_OPTIONS, SATELLITE_TABLE_PAGE_SIZE } from '../../../config/screen';
import { pageOf, sortSatellites, type SortDirection, type SortKey } from '../lib/sorting';
import { configurationLabels } from '../lib/filters';
import { formatCount, formatDateTime } from '../../../lib/format';

export const TABLE_EMPTY_TEXT = 'No satellites found matching your criteria.';
export const TABLE_LOADING_TEXT = 'Loading satellite data...';

const COLUMNS: { key: SortKey; label: string; numeric: boolean }[] = [
  { key: 'displayName', label: 'Name', numeric: false },
  { key: 'status', label: 'Status', numeric: false },
  { key: 'confirmedPackets', label: 'Confirmed packets', numeric: true },
  { key: 'frames', label: 'Frames', numeric: true },
  { key: 'lastPacketTime', label: 'Last packet', numeric: false },
];

const PAGE_OPTIONS = SATELLITE_TABLE_PAGE_OPTIONS.map((n) =>
  n < 0 ? { label: 'All', value: -1 } : n,
);

interface SatelliteTableProps {
  satellites: readonly Satellite[];
  loading: boolean;
}

export function SatelliteTable({ satellites, loading }: SatelliteTableProps) {
  const navigate = useNavigate();
  const [sortKey, setSortKey] = useState<SortKey>('frames');
  const [direction, setDirection] = useState<SortDirection>('desc');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState<number>(SATELLITE_TABLE_PAGE_SIZE);

  const sorted = useMemo(
    () => sortSatellites(satellites, sortKey, direction),
    [satellites, sortKey, direction],
  );
  const lastPage = rowsPerPage < 0 ? 0 : Math.max(0, Math.ceil(sorted.length / rowsPerPage) - 1);
  const shownPage = Math.min(page, lastPage);
  const rows = pageOf(sorted, shownPage, rowsPerPage);

  const sortBy = (key: SortKey) => {
    if (key === sortKey) setDirection(direction === 'asc' ? 'desc' : 'asc');
    else {
      setSortKey(key);
      // Names read naturally A to Z; counters and dates most useful largest first.
      setDirection(key === 'displayName' || key === 'status' ? 'asc' : 'desc');
    }
    setPage(0);
  };

  const open = (satellite: Satellite) =>
    void navigate(`/satellite/${encodeURIComponent(satellite.name)}`);

  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label="Satellites">
          <TableHead>
            <TableRow>
              {COLUMNS.map((column) => (
                <TableCell
                  key={column.key}
                  align={column.numeric ? 'right' : 'left'}
                  sortDirection={sortKey === column.key ? direction : false}
                >
                  <TableSortLabel
                    active={sortKey === column.key}
                    direction={sortKey === column.key ? direction : 'asc'}
                    onClick={() => sortBy(column.key)}
                  >
                    {column.label}
                  </TableSortLabel>
                </TableCell>
              ))}
              <TableCell>Configurations</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {loading ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length + 1} align="center" role="status">
                  {TABLE_LOADING_TEXT}
                </TableCell>
              </TableRow>
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length + 1} align="center" role="status">
                  {TABLE_EMPTY_TEXT}
                </TableCell>
              </TableRow>
            ) : (
              rows.map((satellite) => (
                <TableRow
                  key={satellite.name}
                  hover
                  onClick={() => open(satellite)}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell>
                    {/* The link keeps the row reachable by keyboard and by middle click. */}
                    <Link
                      component={RouterLink}
                      to={`/satellite/${encodeURIComponent(satellite.name)}`}
                      onClick={(e) => e.stopPropagation()}
                    >
                      {satellite.displayName}
                    </Link>
                  </TableCell>
                  <TableCell>{satellite.status}</TableCell>
                  <TableCell align="right">{formatCount(satellite.confirmedPackets)}</TableCell>
                  <TableCell align="right">{formatCount(satellite.frames)}</TableCell>
                  <TableCell>{formatDateTime(satellite.lastPacketTime)}</TableCell>
                  <TableCell>{configurationLabels(satellite).join(', ')}</TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={sorted.length}
        page={shownPage}
        onPageChange={(_e, next) => setPage(next)}
        rowsPerPage={rowsPerPage}
        rowsPerPageOptions={PAGE_OPTIONS}
        onRowsPerPageChange={(e) => {
          setRowsPerPage(Number(e.target.value));
          setPage(0);
        }}
      />
    </Paper>
  );
}
