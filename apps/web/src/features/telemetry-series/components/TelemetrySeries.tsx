// The satellite page's telemetry over time: one numeric field of the decoded packets, picked from
// the fields the server keeps as series (GET /v1/satellite/{name}/telemetry/fields), over the last
// day, 7 days, 30 days or year up to the field's newest sample, as a chart (raw samples, or
// min/avg/max per hour or day), with the same series to download as CSV or JSON.
import { TELEMETRY_RANGES, type TelemetryFieldInfo, type TelemetryRange } from '@tinygs/contracts';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import {
  telemetrySeriesPath,
  useTelemetryFields,
  useTelemetrySeries,
} from '../api/telemetryQueries';
import { formatDateTime } from '../../../lib/format';

const TelemetryChartCanvas = lazy(() => import('./TelemetryChartCanvas'));

const DAY_MS = 86_400_000;
/** Canvas charts need a 2D context (missing in jsdom and where privacy settings block it). */
const CAN_DRAW_CANVAS = typeof window.CanvasRenderingContext2D === 'function';

export const TELEMETRY_SERIES_TEXTS = {
  loading: 'Loading telemetry fields...',
  error: 'Error loading telemetry',
  none: 'No telemetry series yet.',
  loadingSeries: 'Loading series...',
  empty: 'No samples in this range.',
  field: 'Field',
  csv: 'Download CSV',
  json: 'Download JSON',
} as const;

const RANGE_LABELS: Record<TelemetryRange, string> = {
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
  '1y': '1 year',
};
const BUCKET_TEXTS = {
  raw: 'every sample',
  hour: 'min/avg/max per hour',
  day: 'min/avg/max per day',
};

/** A battery voltage when the satellite reports one, else the first field. */
function defaultField(fields: readonly TelemetryFieldInfo[]): string {
  const battery = fields.find((f) => /bat.*volt|volt.*bat/i.test(f.field));
  return (battery ?? fields[0])?.field ?? '';
}

function Series({ satellite, field }: { satellite: string; field: TelemetryFieldInfo }) {
  const [range, setRange] = useState<TelemetryRange>('7d');
  const to = field.lastAt;
  const from = to - TELEMETRY_RANGES[range] * DAY_MS;
  const path = telemetrySeriesPath(satellite, field.field, from, to);
  const series = useTelemetrySeries(satellite, field.field, from, to);
  const data = series.data;
  let body;
  if (series.isError) body = <Typography color="error">{TELEMETRY_SERIES_TEXTS.error}</Typography>;
  else if (!data)
    body = <Typography color="text.secondary">{TELEMETRY_SERIES_TEXTS.loadingSeries}</Typography>;
  else if (data.t.length === 0) body = <Typography>{TELEMETRY_SERIES_TEXTS.empty}</Typography>;
  else
    body = (
      <Stack spacing={1}>
        <Typography variant="body2" color="text.secondary">
          {data.t.length} {data.bucket === 'raw' ? 'samples' : 'buckets'} (
          {BUCKET_TEXTS[data.bucket]}), {formatDateTime(data.from)} – {formatDateTime(data.to)}
          {data.truncated ? '; the newest samples are left out' : ''}
        </Typography>
        {CAN_DRAW_CANVAS && (
          <Box sx={{ height: 280 }}>
            <Suspense fallback={null}>
              <TelemetryChartCanvas
                series={data}
                label={`${field.field} over ${RANGE_LABELS[range]}`}
              />
            </Suspense>
          </Box>
        )}
      </Stack>
    );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={range}
          onChange={(_e, value: TelemetryRange | null) => value && setRange(value)}
          aria-label="Telemetry range"
        >
          {(Object.keys(RANGE_LABELS) as TelemetryRange[]).map((r) => (
            <ToggleButton key={r} value={r}>
              {RANGE_LABELS[r]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Link href={`${path}&format=csv`} download>
          {TELEMETRY_SERIES_TEXTS.csv}
        </Link>
        <Link href={`${path}&format=json`} download={`${satellite}-${field.field}.json`}>
          {TELEMETRY_SERIES_TEXTS.json}
        </Link>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Up to the newest sample, {formatDateTime(field.lastAt)} ({field.samples} samples since{' '}
        {formatDateTime(field.firstAt)}).
      </Typography>
      {body}
    </Stack>
  );
}

export function TelemetrySeries({ satellite }: { satellite: string }) {
  const fields = useTelemetryFields(satellite);
  const [picked, setPicked] = useState<string | null>(null);
  if (fields.isError) return <Typography color="error">{TELEMETRY_SERIES_TEXTS.error}</Typography>;
  if (!fields.data)
    return <Typography color="text.secondary">{TELEMETRY_SERIES_TEXTS.loading}</Typography>;
  const list = fields.data.fields;
  if (list.length === 0) return <Typography>{TELEMETRY_SERIES_TEXTS.none}</Typography>;
  const name = picked ?? defaultField(list);
  const field = list.find((f) => f.field === name) ?? list[0];
  if (!field) return null;
  return (
    <Stack spacing={2}>
      <TextField
        select
        size="small"
        label={TELEMETRY_SERIES_TEXTS.field}
        value={field.field}
        onChange={(e) => setPicked(e.target.value)}
        sx={{ maxWidth: 420 }}
      >
        {list.map((f) => (
          <MenuItem key={f.field} value={f.field}>
            {f.field}
          </MenuItem>
        ))}
      </TextField>
      <Series key={field.field} satellite={satellite} field={field} />
    </Stack>
  );
}
