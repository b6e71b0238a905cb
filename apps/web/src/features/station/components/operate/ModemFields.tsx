// Manual tuning fields of the Operate dialog; LoRa and FSK show their own modem parameters.
import {
  CRC_OPTIONS,
  DATA_SHAPING_OPTIONS,
  FLDRO_OPTIONS,
  MODEM_MODES,
  MODEM_RANGES,
} from '@tinygs/contracts';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import type { ModemErrors, ModemField, ModemFormValues } from '../../lib/modemForm';

interface ModemFieldsProps {
  values: ModemFormValues;
  errors: ModemErrors;
  disabled: boolean;
  onChange(values: ModemFormValues): void;
  /** the satellite picker, which fills several fields at once */
  satelliteField: ReactNode;
}

type TextKey = Exclude<ModemField, 'mode' | 'crc' | 'fldro' | 'ook'>;

const range = (r: { min: number; max: number }) => `${r.min} to ${r.max}`;

export function ModemFields({
  values,
  errors,
  disabled,
  onChange,
  satelliteField,
}: ModemFieldsProps) {
  const set = <K extends ModemField>(key: K, value: ModemFormValues[K]) =>
    onChange({ ...values, [key]: value });

  const numberField = (key: TextKey, label: string, hint: string, step?: number) => (
    <Grid size={{ xs: 12, sm: 6, md: 3 }} key={key}>
      <TextField
        label={label}
        fullWidth
        size="small"
        type="number"
        value={values[key]}
        disabled={disabled}
        onChange={(event) => set(key, event.target.value)}
        error={errors[key] !== undefined}
        helperText={errors[key] ?? hint}
        slotProps={{ htmlInput: { step: step ?? 'any' } }}
      />
    </Grid>
  );

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <TextField
          select
          label="Mode"
          fullWidth
          size="small"
          value={values.mode}
          disabled={disabled}
          onChange={(event) => set('mode', event.target.value === 'FSK' ? 'FSK' : 'LoRa')}
          helperText=" "
        >
          {MODEM_MODES.map((m) => (
            <MenuItem key={m} value={m}>
              {m}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 6 }}>{satelliteField}</Grid>
      {numberField('NORAD', 'NORAD', range(MODEM_RANGES.norad), 1)}
      {numberField('freq', 'Frequency (MHz)', 'MHz')}
      {numberField('pwr', 'TX power (dBm)', range(MODEM_RANGES.pwr), 1)}
      {values.mode === 'LoRa' ? (
        <>
          {numberField(
            'bw',
            'Bandwidth (kHz)',
            `${range(MODEM_RANGES.bwKHz)}, step ${MODEM_RANGES.bwKHz.step}`,
            MODEM_RANGES.bwKHz.step,
          )}
          {numberField('sf', 'Spreading factor', range(MODEM_RANGES.sf), 1)}
          {numberField('cr', 'Coding rate', range(MODEM_RANGES.cr), 1)}
          {numberField('sw', 'Sync word', range(MODEM_RANGES.sw), 1)}
          {numberField('pl', 'Preamble length', range(MODEM_RANGES.pl), 1)}
          {numberField('cl', 'Current limit (mA)', range(MODEM_RANGES.cl))}
          {numberField('gain', 'Gain', `${range(MODEM_RANGES.gain)} (0 = auto)`, 1)}
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <TextField
              select
              label="CRC"
              fullWidth
              size="small"
              value={values.crc ? 'true' : 'false'}
              disabled={disabled}
              onChange={(event) => set('crc', event.target.value === 'true')}
              helperText=" "
            >
              {CRC_OPTIONS.map((o) => (
                <MenuItem key={o.label} value={String(o.value)}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <TextField
              select
              label="FLDRO"
              fullWidth
              size="small"
              value={String(values.fldro)}
              disabled={disabled}
              onChange={(event) => {
                const v = Number(event.target.value);
                set('fldro', v === 0 || v === 1 ? v : 2);
              }}
              helperText=" "
            >
              {FLDRO_OPTIONS.map((o) => (
                <MenuItem key={o.label} value={String(o.value)}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
        </>
      ) : (
        <>
          {numberField('br', 'Bitrate (kbps)', range(MODEM_RANGES.br))}
          {numberField('fd', 'Frequency deviation (kHz)', range(MODEM_RANGES.fd))}
          {numberField('bw', 'Receive bandwidth (kHz)', 'optional')}
          {numberField('pl', 'Preamble length', 'bits', 1)}
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <TextField
              select
              label="Data shaping"
              fullWidth
              size="small"
              value={String(values.ook)}
              disabled={disabled}
              onChange={(event) => set('ook', Number(event.target.value))}
              error={errors.ook !== undefined}
              helperText={errors.ook ?? ' '}
            >
              {DATA_SHAPING_OPTIONS.map((o) => (
                <MenuItem key={o.label} value={String(o.ook)}>
                  {o.label}
                </MenuItem>
              ))}
              {/* A station set to OOK (255) keeps it; the form itself does not offer it. */}
              {!DATA_SHAPING_OPTIONS.some((o) => o.ook === values.ook) && (
                <MenuItem value={String(values.ook)}>OOK</MenuItem>
              )}
            </TextField>
          </Grid>
        </>
      )}
    </Grid>
  );
}
