import { useMemo, useState } from 'react';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { SatelliteListKey } from '@tinygs/contracts';
import { useSatelliteCatalogue } from './api/useSatelliteList';
import { SatelliteCard } from './components/SatelliteCard';
import { SatelliteFilters } from './components/SatelliteFilters';
import { applyFilter, defaultFilter } from './lib/filters';
import { detailPathOf, SATELLITE_LISTS } from './lib/lists';
import { PageLoading } from '../../components/PageLoading';

export const NO_FILTER_MATCH = 'No satellites match the current filters.';

/** Card lists: Active, FSK, Future, Inactive, Balloons (SPEC.md section 2). */
export default function SatelliteListPage({ list }: { list: SatelliteListKey }) {
  const config = SATELLITE_LISTS[list];
  const catalogue = useSatelliteCatalogue(config.sources);
  const [filter, setFilter] = useState(() => defaultFilter(list));
  // The same page component serves several routes: reset the filters when the list changes.
  const [shownList, setShownList] = useState(list);
  if (shownList !== list) {
    setShownList(list);
    setFilter(defaultFilter(list));
  }

  // A failed load is logged by the query cache and shows as an empty list (SPEC.md section 8).
  const satellites = useMemo(
    () =>
      applyFilter(catalogue.data ?? [], filter).sort(
        (a, b) => (b.lastPacketTime ?? 0) - (a.lastPacketTime ?? 0),
      ),
    [catalogue.data, filter],
  );

  return (
    <>
      <Typography variant="h1" component="h1" gutterBottom>
        {config.heading}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {config.intro}
      </Typography>
      <SatelliteFilters
        value={filter}
        onChange={setFilter}
        onReset={() => setFilter(defaultFilter(list))}
      />
      {catalogue.isPending ? (
        <PageLoading label="Loading satellites" />
      ) : satellites.length === 0 ? (
        <Typography role="status">{NO_FILTER_MATCH}</Typography>
      ) : (
        <Grid container spacing={2}>
          {satellites.map((satellite) => (
            <Grid key={satellite.name} size={{ xs: 12, sm: 6, md: 4, xl: 3 }}>
              <SatelliteCard
                satellite={satellite}
                to={detailPathOf(satellite)}
                showLaunchDate={config.showLaunchDate}
              />
            </Grid>
          ))}
        </Grid>
      )}
    </>
  );
}
