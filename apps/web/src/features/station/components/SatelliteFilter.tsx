import type { Packet } from '@tinygs/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

export const ALL_SATELLITES = '';

/** Satellites heard in the loaded packets, by display name. */
export function satellitesOf(packets: readonly Packet[]): { name: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const p of packets) if (!seen.has(p.satellite)) seen.set(p.satellite, p.satDisplayName);
  return [...seen.entries()]
    .map(([name, label]) => ({ name, label }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export function SatelliteFilter(props: {
  packets: readonly Packet[];
  value: string;
  onChange(satellite: string): void;
}) {
  const options = satellitesOf(props.packets);
  return (
    <TextField
      select
      size="small"
      label="Satellite"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      sx={{ minWidth: 220 }}
    >
      <MenuItem value={ALL_SATELLITES}>All satellites</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.name} value={o.name}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
