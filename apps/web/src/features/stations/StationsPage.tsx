import type { StationListItem } from '@tinygs/contracts';
import {
  Box,
  CircularProgress,
  Container,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { StationsMap } from '../map';
import { StationCard } from './components/StationCard';
import { StationsList } from './components/StationsList';
import { useStations } from './api/stationList';

type View = 'map' | 'list';

/** The /stations route: every station on a map or as a searchable list. */
export default function StationsPage() {
  const { stations, loading } = useStations();
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'list' ? 'list' : 'map';
  const [selected, setSelected] = useState<StationListItem | null>(null);

  return (
    <Container maxWidth="xl" sx={{ py: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Stations
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={view}
          onChange={(_e, v: View | null) => {
            if (v) setParams(v === 'list' ? { view: 'list' } : {}, { replace: true });
          }}
        >
          <ToggleButton value="map">Map</ToggleButton>
          <ToggleButton value="list">List</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {/* A failed load is logged by useStations and shows as an empty list (SPEC.md section 8). */}
      {loading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label="Loading stations" />
        </Box>
      ) : view === 'map' ? (
        <Box sx={{ position: 'relative' }}>
          <StationsMap
            stations={stations}
            selected={selected}
            onSelect={setSelected}
            height="70vh"
          />
          {selected && (
            <Box
              sx={{
                position: { md: 'absolute' },
                top: 12,
                right: 12,
                zIndex: 1000,
                width: { md: 320 },
                mt: { xs: 2, md: 0 },
              }}
            >
              <StationCard station={selected} />
            </Box>
          )}
        </Box>
      ) : (
        <StationsList stations={stations} />
      )}
    </Container>
  );
}
