// The satellite page's next passes over a place the visitor picks: latitude and longitude, or one
// of their own stations (GET /v1/satellite/{name}/passes?lat=&lng=).
import { LATITUDE_RANGE_ERROR, LONGITUDE_RANGE_ERROR, formatStationId } from '@tinygs/contracts';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useSatellitePasses } from '../api/passQueries';
import { useStoredUserId } from '../../../lib/session';
import { useUserStations } from '../../stations';
import { PassTable } from './PassTable';

export const SATELLITE_PASSES_TEXTS = {
  intro: 'Enter a place, or pick one of your stations, to see the passes of the next 24 hours.',
  show: 'Show passes',
  myStation: 'My station',
  loading: 'Computing passes...',
  error: 'Error loading passes',
  none: 'No passes over this place in the next 24 hours.',
} as const;

function coordinateError(text: string, limit: number, message: string): string | null {
  if (text.trim() === '' || !Number.isFinite(Number(text))) return 'Must be a number';
  return Math.abs(Number(text)) > limit ? message : null;
}

function CoordinateField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  error: string | null;
}) {
  return (
    <TextField
      size="small"
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={props.error !== null}
      helperText={props.error ?? ' '}
      slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 20 } }}
    />
  );
}

export function SatellitePasses({ satellite }: { satellite: string }) {
  const userId = useStoredUserId();
  const [lat, setLat] = useState('');
  const [lng, setLng] = useState('');
  const [place, setPlace] = useState<[number, number] | null>(null);
  const [touched, setTouched] = useState(false);
  const stations = useUserStations(userId);
  const passes = useSatellitePasses(satellite, place);
  const latError = coordinateError(lat, 90, LATITUDE_RANGE_ERROR);
  const lngError = coordinateError(lng, 180, LONGITUDE_RANGE_ERROR);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!latError && !lngError) setPlace([Number(lat), Number(lng)]);
  };
  const own = stations.data ?? [];

  let result = null;
  if (place) {
    if (passes.isError)
      result = <Typography color="error">{SATELLITE_PASSES_TEXTS.error}</Typography>;
    else if (!passes.data)
      result = <Typography color="text.secondary">{SATELLITE_PASSES_TEXTS.loading}</Typography>;
    else if (passes.data.passes.length === 0)
      result = <Typography>{SATELLITE_PASSES_TEXTS.none}</Typography>;
    else
      result = (
        <PassTable
          passes={passes.data.passes}
          label={`Next passes over ${passes.data.location.join(', ')}`}
          showSatellite={false}
        />
      );
  }

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {SATELLITE_PASSES_TEXTS.intro}
      </Typography>
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        onSubmit={submit}
        noValidate
      >
        {own.length > 0 && (
          <TextField
            select
            size="small"
            label={SATELLITE_PASSES_TEXTS.myStation}
            value=""
            onChange={(e) => {
              const station = own.find((s) => formatStationId(s.name, s.userId) === e.target.value);
              if (!station) return;
              setLat(String(station.location[0]));
              setLng(String(station.location[1]));
              setTouched(false);
              setPlace([station.location[0], station.location[1]]);
            }}
            sx={{ minWidth: 200 }}
          >
            {own.map((s) => (
              <MenuItem
                key={formatStationId(s.name, s.userId)}
                value={formatStationId(s.name, s.userId)}
              >
                {s.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <CoordinateField
          label="Latitude"
          value={lat}
          onChange={setLat}
          error={touched ? latError : null}
        />
        <CoordinateField
          label="Longitude"
          value={lng}
          onChange={setLng}
          error={touched ? lngError : null}
        />
        <Button type="submit" variant="contained" sx={{ alignSelf: 'flex-start' }}>
          {SATELLITE_PASSES_TEXTS.show}
        </Button>
      </Stack>
      {result}
    </Stack>
  );
}
