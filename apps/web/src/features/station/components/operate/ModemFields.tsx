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

/** One field's cell: a full row on phones, half on tablets, a quarter on wider screens. */
const CELL = { xs: 12, sm: 6, md: 3 };

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
    <Grid size={CELL} key={key}>
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

  const selectField = (
    label: string,
    value: string,
    onSelect: (value: string) => void,
    options: readonly { label: string; value: string }[],
    error?: string,
  ) => (
    <Grid size={CELL} key={label}>
      <TextField
        select
        label={label}
        fullWidth
        size="small"
        value={value}
        disabled={disabled}
        onChange={(event) => onSelect(event.target.value)}
        error={error !== undefined}
        helperText={error ?? ' '}
      >
        {options.map((o) => (
          <MenuItem key={o.label} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    </Grid>
  );

  // A station set to OOK (255) keeps it; the form itself does not offer it.
  const shapings = DATA_SHAPING_OPTIONS.map((o) => ({ label: o.label, value: String(o.ook) }));
  if (!DATA_SHAPING_OPTIONS.some((o) => o.ook === values.ook))
    shapings.push({ label: 'OOK', value: String(values.ook) });

  return (
    <Grid container spacing={2}>
      {selectField(
        'Mode',
        values.mode,
        (v) => set('mode', v === 'FSK' ? 'FSK' : 'LoRa'),
        MODEM_MODES.map((m) => ({ label: m, value: m })),
      )}
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
          {selectField(
            'CRC',
            values.crc ? 'true' : 'false',
            (v) => set('crc', v === 'true'),
            CRC_OPTIONS.map((o) => ({ label: o.label, value: String(o.value) })),
          )}
          {selectField(
            'FLDRO',
            String(values.fldro),
            (v) => {
              const n = Number(v);
              set('fldro', n === 0 || n === 1 ? n : 2);
            },
            FLDRO_OPTIONS.map((o) => ({ label: o.label, value: String(o.value) })),
          )}
        </>
      ) : (
        <>
          {numberField('br', 'Bitrate (kbps)', range(MODEM_RANGES.br))}
          {numberField('fd', 'Frequency deviation (kHz)', range(MODEM_RANGES.fd))}
          {numberField('bw', 'Receive bandwidth (kHz)', 'optional')}
          {numberField('pl', 'Preamble length', 'bits', 1)}
          {selectField(
            'Data shaping',
            String(values.ook),
            (v) => set('ook', Number(v)),
            shapings,
            errors.ook,
          )}
        </>
      )}
    </Grid>
  );
}
