// Station facts (SPEC.md sections 3, 6 and 9): locator grid square, elevation in m with 2 decimals,
// record distance in km with 1 decimal; the owner also sees local IP, auto update, Wi-Fi and radio.
import { AUTO_TUNE_OPTIONS, wifiSignalLabel, type StationFull } from '@tinygs/contracts';
import { maidenheadLocator } from '@tinygs/orbit';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Section } from '../../../components/Section';
import { formatCount, formatDateTime, formatNumber } from '../../../lib/format';

function locatorOf([lat, lng]: readonly [number, number]): string {
  try {
    return maidenheadLocator(lat, lng);
  } catch {
    return '–';
  }
}

export function radioStatusText(code: number | null | undefined): string {
  if (code === null || code === undefined) return 'Unknown';
  return code === 0 ? 'Ready' : `Error (code ${code})`;
}

function autoTuneText(value: StationFull['autoTune']): string {
  if (value === null) return 'Not set';
  return AUTO_TUNE_OPTIONS.find((o) => o.value === value)?.label ?? String(value);
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {value}
      </Typography>
    </>
  );
}

export function InfoPanel({ station, isOwner }: { station: StationFull; isOwner: boolean }) {
  const [low, high] = station.antennaBand;
  const online = station.status === 1;
  const wifi =
    typeof station.wifiRssi === 'number'
      ? `${wifiSignalLabel(station.wifiRssi)} (${station.wifiRssi} dBm)`
      : wifiSignalLabel(station.wifiRssi);
  return (
    <Section title="Information" id="station-info">
      {station.description && (
        <Typography sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>{station.description}</Typography>
      )}
      <Box
        component="dl"
        aria-label="Station information"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          gap: 0.5,
          columnGap: 2,
        }}
      >
        <Fact label="Status" value={online ? 'Online' : 'Offline'} />
        {!online && <Fact label="Last seen" value={formatDateTime(station.lastSeen)} />}
        <Fact label="Locator" value={locatorOf(station.location)} />
        <Fact
          label="Location"
          value={`${formatNumber(station.location[0], 3)}, ${formatNumber(station.location[1], 3)}`}
        />
        <Fact label="Elevation" value={`${formatNumber(station.elevation, 2)} m`} />
        <Fact label="Record distance" value={`${formatNumber(station.recordDistance, 1)} km`} />
        <Fact label="Telemetry packets" value={formatCount(station.telemetryPackets)} />
        <Fact label="Confirmed packets" value={formatCount(station.confirmedPackets)} />
        <Fact label="Last packet" value={formatDateTime(station.lastPacketTime)} />
        <Fact label="Satellite" value={station.satDisplayName ?? station.satellite ?? '–'} />
        <Fact label="Auto tune" value={autoTuneText(station.autoTune)} />
        <Fact label="Antenna" value={station.antenna || '–'} />
        <Fact label="Antenna band" value={`${low}-${high} MHz`} />
        <Fact label="Version" value={station.version === null ? '–' : String(station.version)} />
        <Fact label="Created" value={formatDateTime(station.creationDate)} />
        <Fact label="Test station" value={station.test ? 'Yes' : 'No'} />
        {isOwner && (
          <>
            <Fact label="Local IP" value={station.local_ip || '–'} />
            <Fact label="Auto update" value={station.autoUpdate ? 'On' : 'Off'} />
            <Fact label="Beta firmware" value={station.beta ? 'On' : 'Off'} />
            <Fact label="Wi-Fi signal" value={wifi} />
            <Fact label="Radio status" value={radioStatusText(station.radioStatus)} />
          </>
        )}
      </Box>
    </Section>
  );
}
