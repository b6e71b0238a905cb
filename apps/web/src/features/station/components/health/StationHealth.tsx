// Station health (GET /v1/station/{id}/health): a status timeline for the last 7 or 30 days,
// uptime, outages and packets per day, a chart of both per day, and the latest changes.
import { STATION_STATUS_CAUSE_TEXTS, type StationHealth as Health } from '@tinygs/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { Section } from '../../../../components/Section';
import { formatDate, formatDateTime } from '../../../../lib/format';
import { useStationHealth } from '../../api/stationReads';
import { CAN_DRAW_CANVAS } from '../../lib/canDraw';
import { timelineSpans } from '../../lib/timeline';

const HealthChartCanvas = lazy(() => import('./HealthChartCanvas'));

export const HEALTH_TEXTS = {
  title: 'Station health',
  error: 'Error loading station health',
  loading: 'Loading station health...',
  noChanges: 'No changes in this period.',
} as const;
const RECENT_CHANGES = 10;

function percentText(value: number | null): string {
  return value === null ? '–' : `${value.toFixed(1)} %`;
}

function spanText(online: boolean | null): string {
  if (online === null) return 'Unknown';
  return online ? 'Online' : 'Offline';
}

function Timeline({ health, createdAt }: { health: Health; createdAt: number }) {
  const spans = timelineSpans(health, createdAt);
  const total = health.to - health.from;
  return (
    <Box>
      <Box
        role="img"
        aria-label={`Status timeline of the last ${health.days} days: online ${percentText(health.uptimePercent)}, ${health.outages} outages`}
        data-testid="status-timeline"
        sx={{
          display: 'flex',
          height: 24,
          borderRadius: 1,
          overflow: 'hidden',
          bgcolor: 'action.hover',
        }}
      >
        {spans.map((s) => (
          <Box
            key={s.start}
            title={`${spanText(s.online)}: ${formatDateTime(s.start)} – ${formatDateTime(s.end)}`}
            data-online={s.online === null ? 'unknown' : String(s.online)}
            sx={{
              width: `${((s.end - s.start) / total) * 100}%`,
              bgcolor:
                s.online === null ? 'action.disabled' : s.online ? 'success.main' : 'error.main',
            }}
          />
        ))}
      </Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Typography variant="caption">{formatDate(health.from)}</Typography>
        <Typography variant="caption">now</Typography>
      </Stack>
    </Box>
  );
}

function RecentChanges({ health }: { health: Health }) {
  const recent = health.transitions.slice(-RECENT_CHANGES).reverse();
  if (recent.length === 0) return <Typography>{HEALTH_TEXTS.noChanges}</Typography>;
  return (
    <Table size="small" aria-label="Latest status changes">
      <TableHead>
        <TableRow>
          <TableCell>Time</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Cause</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {recent.map((t) => (
          <TableRow key={`${t.at}-${String(t.online)}`}>
            <TableCell>{formatDateTime(t.at)}</TableCell>
            <TableCell>
              <Chip
                size="small"
                color={t.online ? 'success' : 'error'}
                label={t.online ? 'Online' : 'Offline'}
              />
            </TableCell>
            <TableCell>{STATION_STATUS_CAUSE_TEXTS[t.cause]}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function StationHealth({ stationId, createdAt }: { stationId: string; createdAt: number }) {
  const [days, setDays] = useState<'7' | '30'>('7');
  const health = useStationHealth(stationId, days);
  const data = health.data;
  let body;
  if (health.isError) body = <Typography color="error">{HEALTH_TEXTS.error}</Typography>;
  else if (!data) body = <Typography color="text.secondary">{HEALTH_TEXTS.loading}</Typography>;
  else
    body = (
      <Stack spacing={2}>
        <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Typography>
            Uptime <strong>{percentText(data.uptimePercent)}</strong>
          </Typography>
          <Typography>
            Outages <strong>{data.outages}</strong>
          </Typography>
          <Typography>
            Packets per day <strong>{data.packetsPerDay.toFixed(1)}</strong>
          </Typography>
        </Stack>
        <Timeline health={data} createdAt={createdAt} />
        {CAN_DRAW_CANVAS && (
          <Box sx={{ height: 240 }}>
            <Suspense fallback={null}>
              <HealthChartCanvas daily={data.daily} />
            </Suspense>
          </Box>
        )}
        <RecentChanges health={data} />
      </Stack>
    );
  return (
    <Section title={HEALTH_TEXTS.title} id="station-health">
      <ToggleButtonGroup
        exclusive
        size="small"
        value={days}
        onChange={(_e, value: '7' | '30' | null) => value && setDays(value)}
        aria-label="Health period"
        sx={{ mb: 2 }}
      >
        <ToggleButton value="7">7 days</ToggleButton>
        <ToggleButton value="30">30 days</ToggleButton>
      </ToggleButtonGroup>
      {body}
    </Section>
  );
}
