// New station by one-time code (SPEC.md sections 3, 4, 5 and 8). The station shows a 6-digit
// code; the owner enters it here with the station's name, place, admin password and time zone.
import { STATION_NAME_MAX_CHARS } from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState, type FormEvent } from 'react';
import { LocationPicker } from '../../map';
import {
  EMPTY_NEW_STATION,
  creationPayload,
  locationOf,
  pickedLocationText,
  validateNewStation,
  type NewStationField,
  type NewStationValues,
} from '../lib/newStationForm';
import { browserTimeZone, supportedTimeZones } from '../lib/posixTimeZone';
import { useStationCreation, type CreationState } from '../hooks/useStationCreation';

/**
 * The map draws on a 2D canvas. Where the browser offers none (canvas blocked by privacy
 * settings, or a DOM without graphics such as jsdom) the location is entered in the fields only.
 */
const CAN_DRAW_MAPS = typeof window.CanvasRenderingContext2D === 'function';

interface NewStationDialogProps {
  open: boolean;
  onClose(): void;
  userId: string;
  /** Called when the server reports the station created. */
  onCreated(): void;
}

const FIELD_LABELS: Record<Exclude<NewStationField, 'timeZone'>, string> = {
  name: 'Station Name',
  otp: 'One-time code (OTP)',
  locationLat: 'Latitude',
  locationLon: 'Longitude',
  adminPassword: 'Admin password',
  adminPasswordConfirm: 'Confirm admin password',
};

function CreationProgress({ state, onCancel }: { state: CreationState; onCancel(): void }) {
  if (state.kind === 'idle') return null;
  if (state.kind === 'initiating' || state.kind === 'polling') {
    return (
      <Alert
        severity="info"
        icon={<CircularProgress size={20} aria-hidden />}
        action={
          <Button color="inherit" size="small" onClick={onCancel}>
            Cancel
          </Button>
        }
      >
        {state.kind === 'initiating'
          ? 'Initiating...'
          : `Waiting for the station... ${state.text}`.trim()}
      </Alert>
    );
  }
  const severity =
    state.kind === 'success' ? 'success' : state.kind === 'cancelled' ? 'warning' : 'error';
  return <Alert severity={severity}>{state.text}</Alert>;
}

export function NewStationDialog({ open, onClose, userId, onCreated }: NewStationDialogProps) {
  // Kept outside the form so that closing the dialog does not stop a running creation.
  const creation = useStationCreation(onCreated);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="new-station-title"
      fullWidth
      maxWidth="md"
    >
      <NewStationForm onClose={onClose} userId={userId} creation={creation} />
    </Dialog>
  );
}

interface NewStationFormProps {
  onClose(): void;
  userId: string;
  creation: ReturnType<typeof useStationCreation>;
}

function NewStationForm({ onClose, userId, creation }: NewStationFormProps) {
  const [values, setValues] = useState<NewStationValues>(() => ({
    ...EMPTY_NEW_STATION,
    timeZone: browserTimeZone(),
  }));
  const [touched, setTouched] = useState<Partial<Record<NewStationField, boolean>>>({});
  const zones = useMemo(() => supportedTimeZones(), []);
  const errors = useMemo(() => validateNewStation(values), [values]);
  const valid = Object.keys(errors).length === 0;
  const busy = creation.state.kind === 'initiating' || creation.state.kind === 'polling';

  const set = (field: NewStationField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
  };
  const touch = (field: NewStationField) => setTouched((t) => ({ ...t, [field]: true }));
  const shown = (field: NewStationField) => (touched[field] ? errors[field] : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const payload = valid ? creationPayload(values) : null;
    if (!payload || busy) {
      setTouched({
        name: true,
        otp: true,
        locationLat: true,
        locationLon: true,
        adminPassword: true,
        adminPasswordConfirm: true,
        timeZone: true,
      });
      return;
    }
    void creation.start(userId, payload);
  };

  const textField = (
    field: Exclude<NewStationField, 'timeZone'>,
    extra: Partial<Parameters<typeof TextField>[0]> = {},
  ) => (
    <TextField
      label={FIELD_LABELS[field]}
      required
      fullWidth
      value={values[field]}
      disabled={busy}
      onChange={(event) => set(field, event.target.value)}
      onBlur={() => touch(field)}
      error={shown(field) !== undefined}
      helperText={shown(field) ?? ' '}
      {...extra}
    />
  );

  return (
    <form noValidate onSubmit={submit}>
      <DialogTitle id="new-station-title">New station</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Power on the new station: it shows a 6-digit one-time code. Enter it here with the
          station&apos;s details; the station then collects its credentials and settings.
        </Typography>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            {textField('name', {
              slotProps: { htmlInput: { maxLength: STATION_NAME_MAX_CHARS + 1 } },
            })}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {textField('otp', {
              slotProps: { htmlInput: { maxLength: 6, inputMode: 'numeric' } },
            })}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {textField('locationLat', { slotProps: { htmlInput: { inputMode: 'decimal' } } })}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {textField('locationLon', { slotProps: { htmlInput: { inputMode: 'decimal' } } })}
          </Grid>
          <Grid size={12}>
            {CAN_DRAW_MAPS && (
              <>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  Or click the station&apos;s place on the map.
                </Typography>
                <LocationPicker
                  value={locationOf(values)}
                  onChange={(point) => {
                    const text = pickedLocationText(point.lat, point.lng);
                    setValues((v) => ({ ...v, locationLat: text.lat, locationLon: text.lng }));
                    setTouched((t) => ({ ...t, locationLat: true, locationLon: true }));
                  }}
                />
              </>
            )}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {textField('adminPassword', { type: 'password', autoComplete: 'new-password' })}
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            {textField('adminPasswordConfirm', {
              type: 'password',
              autoComplete: 'new-password',
            })}
          </Grid>
          <Grid size={12}>
            <Autocomplete
              options={zones}
              value={values.timeZone || null}
              disabled={busy}
              onChange={(_event, zone) => set('timeZone', zone ?? '')}
              onBlur={() => touch('timeZone')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Time Zone"
                  required
                  error={shown('timeZone') !== undefined}
                  helperText={shown('timeZone') ?? ' '}
                />
              )}
            />
          </Grid>
        </Grid>
        <Stack sx={{ mt: 1 }}>
          <CreationProgress state={creation.state} onCancel={creation.cancel} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button type="submit" variant="contained" disabled={!valid || busy}>
          Create station
        </Button>
      </DialogActions>
    </form>
  );
}
