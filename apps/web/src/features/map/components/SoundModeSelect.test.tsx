import { STORAGE_KEYS } from '@tinygs/contracts';
import { cleanup, render, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useSoundMode } from '../hooks/useSoundMode';
import { SoundModeSelect } from './SoundModeSelect';
import { loadSoundMode } from '../lib/soundMode';

function Harness() {
  const [mode, setMode] = useSoundMode();
  return <SoundModeSelect value={mode} onChange={setMode} />;
}

// The first test that opens the select imports MUI's select in the test environment: seconds.
const LOADS_MENU = 30_000;

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

  it(
    'remembers the chosen mode across page loads',
    async () => {
      const user = userEvent.setup();
      const { unmount } = render(<Harness />);
      // The select's code loads when the visitor opens it; the menu then opens by itself.
      await user.click(screen.getByRole('combobox'));
      await user.click(
        within(await screen.findByRole('listbox', {}, { timeout: 10_000 })).getByText('Geiger'),
      );
      expect(localStorage.getItem(STORAGE_KEYS.soundMode)).toBe('geiger');
      unmount();

      render(<Harness />);
      expect(screen.getByRole('combobox').textContent).toContain('Geiger');
    },
    LOADS_MENU,
  );

  it(
    'opens from the keyboard too',
    async () => {
      const user = userEvent.setup();
      render(<Harness />);
      await user.tab();
      await user.keyboard('{ArrowDown}');
      await user.click(
        within(await screen.findByRole('listbox', {}, { timeout: 10_000 })).getByText('Sonar'),
      );
      expect(localStorage.getItem(STORAGE_KEYS.soundMode)).toBe('sonar');
      expect(screen.getByRole('combobox').textContent).toContain('Sonar');
    },
    LOADS_MENU,
  );

  it('ignores an unknown stored value', () => {
    localStorage.setItem(STORAGE_KEYS.soundMode, 'trumpet');
    expect(loadSoundMode()).toBe('radar');
  });
});
