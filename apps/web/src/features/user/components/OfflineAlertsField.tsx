// The offline-alert choice of the e-mail preferences: a switch and how long a station must be
// offline before its owner is told (docs/OPERATIONS.md, OFFLINE_ALERTS_PER_DAY).
import {
  OFFLINE_ALERT_DELAYS_MINUTES,
  OFFLINE_ALERT_DELAY_LABELS,
  OfflineAlertDelaySchema,
  type OfflineAlerts,
} from '@tinygs/contracts';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';

export function offlineAlertsHelp(viaBot: boolean): string {
  const how = viaBot ? 'An e-mail and a bot message' : 'An e-mail';
  return `${how} when one of your stations has been offline this long, once per outage, and another when it is back. At most a few a day.`;
}

export function OfflineAlertsField({
  value,
  onChange,
}: {
  value: OfflineAlerts;
  onChange(value: OfflineAlerts): void;
}) {
  return (
    <Stack spacing={1}>
      <FormControlLabel
        control={
          <Switch
            checked={value.enabled}
            onChange={(event) => onChange({ ...value, enabled: event.target.checked })}
          />
        }
        label="Offline alerts"
      />
      <TextField
        select
        label="Alert when a station is offline for"
        value={value.delayMinutes}
        disabled={!value.enabled}
        onChange={(event) =>
          onChange({
            ...value,
            delayMinutes: OfflineAlertDelaySchema.parse(Number(event.target.value)),
          })
        }
      >
        {OFFLINE_ALERT_DELAYS_MINUTES.map((minutes) => (
          <MenuItem key={minutes} value={minutes}>
            {OFFLINE_ALERT_DELAY_LABELS[minutes]}
          </MenuItem>
        ))}
      </TextField>
      <FormHelperText>{offlineAlertsHelp(value.viaBot)}</FormHelperText>
    </Stack>
  );
}
