// The chosen sound mode survives reloads (SPEC.md: browser-stored items). Anything unknown in
// storage falls back to the default rather than silencing or breaking the map.
import { DEFAULT_SOUND_MODE, SOUND_MODES, STORAGE_KEYS, type SoundMode } from '@tinygs/contracts';

export function isSoundMode(value: unknown): value is SoundMode {
  return typeof value === 'string' && (SOUND_MODES as readonly string[]).includes(value);
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage access throws in some privacy modes.
    return null;
  }
}

export function loadSoundMode(): SoundMode {
  const stored = storage()?.getItem(STORAGE_KEYS.soundMode);
  return isSoundMode(stored) ? stored : DEFAULT_SOUND_MODE;
}

export function saveSoundMode(mode: SoundMode): void {
  try {
    storage()?.setItem(STORAGE_KEYS.soundMode, mode);
  } catch {
    // Quota or privacy mode: the choice then lasts for this page only.
  }
}

export const SOUND_MODE_LABELS: Record<SoundMode, string> = {
  off: 'Off',
  beep: 'Beep',
  geiger: 'Geiger',
  radar: 'Radar',
  sonar: 'Sonar',
};
