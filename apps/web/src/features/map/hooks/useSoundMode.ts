import type { SoundMode } from '@tinygs/contracts';
import { useState } from 'react';
import { loadSoundMode, saveSoundMode } from '../lib/soundMode';
import { unlockAudio } from '../lib/synth';

/** The map's sound mode, kept in the browser across visits; choosing one unlocks audio. */
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
