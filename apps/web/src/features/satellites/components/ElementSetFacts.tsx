import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { TLE_STALE_AFTER_MS, type SatelliteDetail } from '@tinygs/contracts';
import { FactList } from '../../../components/FactList';
import { formatDateTime } from '../../../lib/format';
import { elementSetAge } from '../lib/elementSet';

const STALE_DAYS = Math.round(TLE_STALE_AFTER_MS / 86_400_000);

/** Epoch, age and source of the element set; a warning when it is older than the threshold. */
export function ElementSetFacts({
  satellite,
}: {
  satellite: Pick<SatelliteDetail, 'tle' | 'tleEpoch' | 'tleSource' | 'tleStale'>;
}) {
  const age = elementSetAge(satellite);
  if (!age) return null;
  return (
    <Stack spacing={1}>
      <FactList
        label="Element set"
        facts={[
          {
            label: 'Epoch',
            value: (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <span>
                  {formatDateTime(age.epochMs)} ({age.ageText})
                </span>
                {age.stale ? <Chip size="small" color="warning" label="Outdated" /> : null}
              </Stack>
            ),
          },
          { label: 'Source', value: satellite.tleSource ?? 'Unknown' },
        ]}
      />
      {age.stale ? (
        <Alert severity="warning">
          This element set is {age.ageText}, more than {STALE_DAYS} days: positions, passes and
          Doppler computed from it may be far off.
        </Alert>
      ) : null}
    </Stack>
  );
}
