import { STORAGE_KEYS } from '@tinygs/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SoundModeSelect, useSoundMode } from './SoundModeSelect';
import { loadSoundMode } from './soundMode';

function Harness() {
  const [mode, setMode] = useSoundMode();
  return <SoundModeSelect value={mode} onChange={setMode} />;
}

describe('sound mode', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  it('defaults to radar', () => {
    expect(loadSoundMode()).toBe('radar');
    render(<Harness />);
    expect(screen.getByRole('combobox').textContent).toContain('Radar');
  });

  it('remembers the chosen mode across page loads', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Harness />);
    await user.click(screen.getByRole('combobox'));
    await user.click(within(screen.getByRole('listbox')).getByText('Geiger'));
    expect(localStorage.getItem(STORAGE_KEYS.soundMode)).toBe('geiger');
    unmount();

    render(<Harness />);
    expect(screen.getByRole('combobox').textContent).toContain('Geiger');
  });

  it('ignores an unknown stored value', () => {
    localStorage.setItem(STORAGE_KEYS.soundMode, 'trumpet');
    expect(loadSoundMode()).toBe('radar');
  });
});
