// The sound mode select itself (MUI TextField select: its menu, popover and modal are some 30 KB
// gzip), loaded only once a visitor points at, focuses or opens the stand-in of SoundModeSelect.
import { SOUND_MODES, type SoundMode } from '@tinygs/contracts';
import { MenuItem, TextField } from '@mui/material';
import { SOUND_MODE_LABELS } from '../lib/soundMode';

export default function SoundModeMenu({
  value,
  onChange,
  open,
  focus,
}: {
  value: SoundMode;
  onChange: (mode: SoundMode) => void;
  /** opened by the click or key that loaded it */
  open: boolean;
  /** the stand-in had the keyboard focus */
  focus: boolean;
}) {
  return (
    <TextField
      select
      size="small"
      label="Sound"
      value={value}
      autoFocus={focus || open}
      onChange={(e) => onChange(e.target.value as SoundMode)}
      slotProps={{ select: { defaultOpen: open } }}
      sx={{ minWidth: 120 }}
    >
      {SOUND_MODES.map((m) => (
        <MenuItem key={m} value={m}>
          {SOUND_MODE_LABELS[m]}
        </MenuItem>
      ))}
    </TextField>
  );
}
