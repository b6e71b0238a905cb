import { useMemo } from 'react';
import Typography from '@mui/material/Typography';
import type { SatelliteListKey } from '@tinygs/contracts';
import { useSatelliteCatalogue } from './api/useSatelliteList';
import { SatelliteTable } from './components/SatelliteTable';
import { applyFilter, defaultFilter, isTableEligible } from './lib/filters';
import { SATELLITE_LISTS } from './lib/lists';

/** Table lists: Starlink and Surveillance (SPEC.md sections 2 and 9). */
export default function SatelliteTablePage({ list }: { list: SatelliteListKey }) {
  const config = SATELLITE_LISTS[list];
  const catalogue = useSatelliteCatalogue(config.sources);
  // "Within 365 days" is judged at the time the catalogue was fetched, which keeps render pure.
  const fetchedAt = catalogue.dataUpdatedAt;
  const satellites = useMemo(
    () =>
      applyFilter(catalogue.data ?? [], defaultFilter(list)).filter((s) =>
        isTableEligible(s, fetchedAt),
      ),
    [catalogue.data, list, fetchedAt],
  );

  return (
    <>
      <Typography variant="h1" component="h1" gutterBottom>
        {config.heading}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {config.intro}
      </Typography>
      <SatelliteTable key={list} satellites={satellites} loading={catalogue.isPending} />
    </>
  );
}
