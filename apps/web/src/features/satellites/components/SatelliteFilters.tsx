import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  FREQUENCY_BANDS,
  MODEM_MODES,
  SATELLITE_STATUSES,
  type Band,
  type ModemMode,
  type SatelliteStatus,
} from '@tinygs/contracts';
import type { SatelliteFilterState } from '../lib/filters';

interface SatelliteFiltersProps {
  value: SatelliteFilterState;
  onChange: (value: SatelliteFilterState) => void;
  onReset: () => void;
}

function toggle(statuses: SatelliteStatus[], status: SatelliteStatus): SatelliteStatus[] {
  return statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status];
}

function parseBand(text: string): Band | null {
  return FREQUENCY_BANDS.find((b) => String(b.band) === text)?.band ?? null;
}

function parseMode(text: string): ModemMode | null {
  return MODEM_MODES.find((m) => m === text) ?? null;
}

export function SatelliteFilters({ value, onChange, onReset }: SatelliteFiltersProps) {
  return (
    <Stack
      component="section"
      aria-label="Filters"
      spacing={1.5}
      sx={{ mb: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}
    >
      <div role="group" aria-labelledby="status-filter-label">
        <Typography id="status-filter-label" variant="subtitle2" component="p" sx={{ mb: 0.5 }}>
          Status
        </Typography>
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {SATELLITE_STATUSES.map((status) => {
            const selected = value.statuses.includes(status);
            return (
              <Chip
                key={status}
                label={status}
                size="small"
                clickable
                color={selected ? 'primary' : 'default'}
                variant={selected ? 'filled' : 'outlined'}
                aria-pressed={selected}
                onClick={() => onChange({ ...value, statuses: toggle(value.statuses, status) })}
              />
            );
          })}
        </Stack>
      </div>
      <Stack
        direction="row"
        spacing={1.5}
        useFlexGap
        sx={{ flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField
          select
          size="small"
          label="Band"
          value={value.band === null ? '' : String(value.band)}
          onChange={(e) => onChange({ ...value, band: parseBand(e.target.value) })}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 140 }}
        >
          <option value="">All bands</option>
          {FREQUENCY_BANDS.map((b) => (
            <option key={b.band} value={String(b.band)}>
              {b.label} MHz
            </option>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Mode"
          value={value.mode ?? ''}
          onChange={(e) => onChange({ ...value, mode: parseMode(e.target.value) })}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 140 }}
        >
          <option value="">All modes</option>
          {MODEM_MODES.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </TextField>
        <Button size="small" onClick={onReset}>
          Reset filters
        </Button>
      </Stack>
    </Stack>
  );
}
