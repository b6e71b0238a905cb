import type { StationListItem } from '@tinygs/contracts';
import { Box, Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useDeferredValue, useMemo, useState } from 'react';
import { StationCard } from './StationCard';
import { useOwnStationIps } from '../api/useOwnStationIps';
import {
  filterStations,
  sortStations,
  STATION_SORT_LABELS,
  STATION_SORTS,
  type StationSort,
} from '../lib/stationListOrder';

// Thousands of cards would stall the page; grow the list on request instead.
const PAGE_SIZE = 60;

export function StationsList({ stations }: { stations: readonly StationListItem[] }) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<StationSort>('name');
  const [shown, setShown] = useState(PAGE_SIZE);
  const ownIps = useOwnStationIps(stations);
  const deferredQuery = useDeferredValue(query);
  const ordered = useMemo(
    () => sortStations(filterStations(stations, deferredQuery), sort),
    [stations, deferredQuery, sort],
  );
  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          label="Search"
          size="small"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setShown(PAGE_SIZE);
          }}
          sx={{ flex: 1 }}
        />
        <TextField
          select
          label="Sort by"
          size="small"
          value={sort}
          onChange={(e) => setSort(e.target.value as StationSort)}
          sx={{ minWidth: 180 }}
        >
          {STATION_SORTS.map((s) => (
            <MenuItem key={s} value={s}>
              {STATION_SORT_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {ordered.length} stations
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
        }}
      >
        {ordered.slice(0, shown).map((s) => (
          <StationCard
            key={`${s.name}@${s.userId}`}
            station={s}
            localIp={ownIps.get(`${s.name}@${s.userId}`)}
          />
        ))}
      </Box>
      {shown < ordered.length && (
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Button onClick={() => setShown((n) => n + PAGE_SIZE)}>Show more</Button>
        </Box>
      )}
    </Box>
  );
}
