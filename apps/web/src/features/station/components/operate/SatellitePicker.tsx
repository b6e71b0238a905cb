// The Operate dialog's satellite field: a searchable list of the Supported satellites and balloons
// with their LoRa/FSK configurations. Picking one fills the modem fields with its defaults; any
// other name can still be typed for a satellite the lists do not hold.
import type { Satellite } from '@tinygs/contracts';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { configurationSummary } from '../../lib/satelliteChoice';

interface SatellitePickerProps {
  satellites: Satellite[];
  loading: boolean;
  /** the satellite name the form holds */
  value: string;
  disabled: boolean;
  error?: string;
  onPick(satellite: Satellite): void;
  onType(name: string): void;
}

const filter = createFilterOptions<Satellite>({
  stringify: (s) => `${s.name} ${s.displayName}`,
});

export function SatellitePicker({
  satellites,
  loading,
  value,
  disabled,
  error,
  onPick,
  onType,
}: SatellitePickerProps) {
  const selected = satellites.find((s) => s.name === value) ?? value;
  return (
    <Autocomplete<Satellite, false, false, true>
      freeSolo
      options={satellites}
      loading={loading}
      value={selected === '' ? null : selected}
      disabled={disabled}
      filterOptions={filter}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.name)}
      isOptionEqualToValue={(option, current) => option.name === current.name}
      groupBy={(option) => (option.status === 'Balloon' ? 'Balloons' : 'Satellites')}
      onChange={(_event, next) => {
        if (next === null) onType('');
        else if (typeof next === 'string') onType(next);
        else onPick(next);
      }}
      onInputChange={(_event, text, reason) => {
        if (reason === 'input') onType(text);
      }}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props}>
          <div>
            <Typography component="span" sx={{ display: 'block' }}>
              {option.displayName}
              {option.displayName !== option.name ? ` (${option.name})` : ''}
            </Typography>
            <Typography component="span" variant="body2" color="text.secondary">
              {configurationSummary(option) || 'No configuration'}
            </Typography>
          </div>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Satellite"
          size="small"
          error={error !== undefined}
          helperText={error ?? 'Pick one to load its defaults'}
        />
      )}
    />
  );
}
