// Station facts (SPEC.md sections 3, 6 and 9): locator grid square, elevation in m with 2 decimals,
// record distance in km with 1 decimal; the owner also sees local IP, auto update, Wi-Fi and radio.
import { AUTO_TUNE_OPTIONS, wifiSignalLabel, type StationFull } from '@tinygs/contracts';
import { maidenheadLocator } from '@tinygs/orbit';
import Typography from '@mui/material/Typography';
import { FactList, type Fact } from '../../../components/FactList';
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

export function InfoPanel({ station, isOwner }: { station: StationFull; isOwner: boolean }) {
  const [low, high] = station.antennaBand;
  const online = station.status === 1;
  const wifi =
    typeof station.wifiRssi === 'number'
      ? `${wifiSignalLabel(station.wifiRssi)} (${station.wifiRssi} dBm)`
      : wifiSignalLabel(station.wifiRssi);
  const facts: Fact[] = [
    { label: 'Status', value: online ? 'Online' : 'Offline' },
    ...(online ? [] : [{ label: 'Last seen', value: formatDateTime(station.lastSeen) }]),
    { label: 'Locator', value: locatorOf(station.location) },
    {
      label: 'Location',
      value: `${formatNumber(station.location[0], 3)}, ${formatNumber(station.location[1], 3)}`,
    },
    { label: 'Elevation', value: `${formatNumber(station.elevation, 2)} m` },
    { label: 'Record distance', value: `${formatNumber(station.recordDistance, 1)} km` },
    { label: 'Telemetry packets', value: formatCount(station.telemetryPackets) },
    { label: 'Confirmed packets', value: formatCount(station.confirmedPackets) },
    { label: 'Last packet', value: formatDateTime(station.lastPacketTime) },
    { label: 'Satellite', value: station.satDisplayName ?? station.satellite ?? '–' },
    { label: 'Auto tune', value: autoTuneText(station.autoTune) },
    { label: 'Antenna', value: station.antenna || '–' },
    { label: 'Antenna band', value: `${low}-${high} MHz` },
    { label: 'Version', value: station.version === null ? '–' : String(station.version) },
    { label: 'Created', value: formatDateTime(station.creationDate) },
    { label: 'Test station', value: station.test ? 'Yes' : 'No' },
    ...(isOwner
      ? [
          { label: 'Local IP', value: station.local_ip || '–' },
          { label: 'Auto update', value: station.autoUpdate ? 'On' : 'Off' },
          { label: 'Beta firmware', value: station.beta ? 'On' : 'Off' },
          { label: 'Wi-Fi signal', value: wifi },
          { label: 'Radio status', value: radioStatusText(station.radioStatus) },
        ]
      : []),
  ];
  return (
    <Section title="Information" id="station-info">
      {station.description && (
        <Typography sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>{station.description}</Typography>
      )}
      <FactList label="Station information" facts={facts} />
    </Section>
  );
}
