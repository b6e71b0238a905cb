// 'Edit station parameters' (SPEC.md sections 2, 4 and 5): replaces the station page for the owner.
import {
  ANTENNA_BAND_DEFAULT_MHZ,
  ANTENNA_BAND_MAX_MHZ,
  ANTENNA_BAND_MIN_MHZ,
  ANTENNA_TYPES,
  DESCRIPTION_MAX_CHARS,
  StationEditBodySchema,
  stripTags,
  type Picture,
  type StationEditBody,
  type StationFull,
} from '@tinygs/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ApiError } from '../../../../lib/api';
import type { Session } from '../../../../lib/session';
import { saveStationEdit } from '../../api/stationActions';
import { PictureManager } from './PictureManager';

const EDIT_FAILED = 'The station could not be saved. Please try again later.'; // ours

function initialBand(station: StationFull): [number, number] {
  const [low, high] = station.antennaBand;
  const inRange = (v: number) => v >= ANTENNA_BAND_MIN_MHZ && v <= ANTENNA_BAND_MAX_MHZ;
  return inRange(low) && inRange(high) && low <= high
    ? [low, high]
    : [ANTENNA_BAND_DEFAULT_MHZ[0], ANTENNA_BAND_DEFAULT_MHZ[1]];
}

interface EditStationProps {
  station: StationFull;
  session: Session | null;
  onSaved(station: StationFull): void;
  onPicturesChanged(pictures: Picture[]): void;
  onCancel(): void;
}

export function EditStation({
  station,
  session,
  onSaved,
  onPicturesChanged,
  onCancel,
}: EditStationProps) {
  const [description, setDescription] = useState(station.description);
  const [antenna, setAntenna] = useState(station.antenna);
  const [band, setBand] = useState<[number, number]>(() => initialBand(station));
  const [test, setTest] = useState(station.test);
  const [autoUpdate, setAutoUpdate] = useState(station.autoUpdate ?? false);
  const [beta, setBeta] = useState(station.beta ?? false);
  const [shareWithSatnogs, setShareWithSatnogs] = useState(!(station.satnogsOptOut ?? false));
  const [phase, setPhase] = useState<'idle' | 'sending' | 'error'>('idle');
  const [errorText, setErrorText] = useState<string | null>(null);

  const edited =
    <T,>(setter: (value: T) => void) =>
    (value: T) => {
      setter(value);
      if (phase === 'error') setPhase('idle');
    };

  const candidate = {
    description: stripTags(description),
    antenna,
    antennaBand: band,
    test,
    autoUpdate,
    beta: autoUpdate && beta,
    satnogsOptOut: !shareWithSatnogs,
  };
  const check = StationEditBodySchema.safeParse(candidate);
  const fieldError = (field: keyof StationEditBody) =>
    check.success ? undefined : check.error.issues.find((i) => i.path[0] === field)?.message;

  const save = async () => {
    if (!check.success) return;
    setPhase('sending');
    setErrorText(null);
    try {
      await saveStationEdit(station.id, session, check.data);
      setPhase('idle');
      onSaved({ ...station, ...check.data });
    } catch (error) {
      console.warn('Saving the station failed', error);
      setPhase('error');
      setErrorText(error instanceof ApiError && error.status < 500 ? error.message : EDIT_FAILED);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={3}>
        <Typography variant="h4" component="h1">
          Edit station parameters
        </Typography>
        <Typography color="text.secondary">{station.id}</Typography>
        {errorText && <Alert severity="error">{errorText}</Alert>}
        <TextField
          label="Description"
          multiline
          minRows={3}
          value={description}
          onChange={(event) => edited(setDescription)(event.target.value)}
          error={fieldError('description') !== undefined}
          helperText={
            fieldError('description') ??
            `${stripTags(description).length}/${DESCRIPTION_MAX_CHARS} characters`
          }
        />
        <TextField
          select
          label="Antenna"
          value={ANTENNA_TYPES.some((t) => t === antenna) ? antenna : ''}
          onChange={(event) => edited(setAntenna)(event.target.value)}
          error={fieldError('antenna') !== undefined}
          helperText={fieldError('antenna') ?? ' '}
        >
          {ANTENNA_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <Typography id="antenna-band-label" gutterBottom>
            Antenna band: {band[0]}-{band[1]} MHz
          </Typography>
          <Slider
            value={band}
            min={ANTENNA_BAND_MIN_MHZ}
            max={ANTENNA_BAND_MAX_MHZ}
            onChange={(_event, value) => {
              if (Array.isArray(value) && value.length === 2)
                edited(setBand)([value[0] ?? band[0], value[1] ?? band[1]]);
            }}
            valueLabelDisplay="auto"
            disableSwap
            getAriaLabel={(index) => (index === 0 ? 'Lowest frequency' : 'Highest frequency')}
            getAriaValueText={(value) => `${value} MHz`}
          />
        </Box>
        <FormGroup>
          <FormControlLabel
            control={
              <Switch checked={test} onChange={(event) => edited(setTest)(event.target.checked)} />
            }
            label="Test station"
          />
          <FormControlLabel
            control={
              <Switch
                checked={autoUpdate}
                onChange={(event) => {
                  edited(setAutoUpdate)(event.target.checked);
                  if (!event.target.checked) setBeta(false);
                }}
              />
            }
            label="Auto update"
          />
          <FormControlLabel
            control={
              <Switch
                checked={autoUpdate && beta}
                disabled={!autoUpdate}
                onChange={(event) => edited(setBeta)(event.target.checked)}
              />
            }
            label="Beta firmware"
          />
          <FormControlLabel
            control={
              <Switch
                checked={shareWithSatnogs}
                onChange={(event) => edited(setShareWithSatnogs)(event.target.checked)}
              />
            }
            label="Share frames with SatNOGS DB"
          />
          <Typography variant="body2" color="text.secondary">
            For the satellites the network forwards to SatNOGS DB, the frames this station receives
            are sent with its name and location. Off: none of them are.
          </Typography>
        </FormGroup>
        <PictureManager
          stationId={station.id}
          session={session}
          pictures={station.pictures}
          onChange={onPicturesChanged}
        />
        <Stack direction="row" spacing={2}>
          <Button
            variant="contained"
            onClick={() => void save()}
            disabled={!check.success || phase === 'sending'}
            color={phase === 'error' ? 'error' : 'primary'}
            sx={{ minWidth: 96 }}
          >
            {phase === 'sending' ? (
              <CircularProgress size={20} aria-label="Saving" />
            ) : phase === 'error' ? (
              'Error'
            ) : (
              'Save'
            )}
          </Button>
          <Button onClick={onCancel} disabled={phase === 'sending'}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
