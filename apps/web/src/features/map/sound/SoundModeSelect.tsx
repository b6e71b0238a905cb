import { SOUND_MODES, type SoundMode } from '@tinygs/contracts';
import { MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { loadSoundMode, saveSoundMode } from './soundMode';
import { unlockAudio } from './synth';

const LABELS: Record<SoundMode, string> = {
  off: 'Off',
  beep: 'Beep',
  geiger: 'Geiger',
  radar: 'Radar',
  sonar: 'Sonar',
};

export function useSoundMode(): [SoundMode, (mode: SoundMode) => void] {
  const [mode, setMode] = useState<SoundMode>(loadSoundMode);
  const choose = (next: SoundMode) => {
    saveSoundMode(next);
    // The selection is a user gesture: the only moment browsers let a page start audio.
    if (next !== 'off') unlockAudio();
    setMode(next);
  };
  return [mode, choose];
}

export function SoundModeSelect({
  value,
  onChange,
}: {
  value: SoundMode;
  onChange: (mode: SoundMode) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label="Sound"
      value={value}
      onChange={(e) => onChange(e.target.value as SoundMode)}
      sx={{ minWidth: 120 }}
    >
      {SOUND_MODES.map((m) => (
        <MenuItem key={m} value={m}>
          {LABELS[m]}
        </MenuItem>
      ))}
    </TextField>
  );
}
