import type { SoundMode } from '@tinygs/contracts';
import Box from '@mui/material/Box';
import { useState, type ComponentType, type KeyboardEvent, type ReactElement } from 'react';
import { SOUND_MODE_LABELS } from '../lib/soundMode';

type Menu = ComponentType<{
  value: SoundMode;
  onChange: (mode: SoundMode) => void;
  open: boolean;
  focus: boolean;
}>;
let loading: Promise<Menu> | null = null;
const loadMenu = () => (loading ??= import('./SoundModeMenu').then((m) => m.default));

type Intent = { open: boolean; focus: boolean } | null;

/**
 * The map's sound mode select. Until a visitor points at it, focuses it or opens it, a stand-in of
 * the same size and look is shown, so the first visit does not download MUI's select and menu.
 */
export function SoundModeSelect({
  value,
  onChange,
}: {
  value: SoundMode;
  onChange: (mode: SoundMode) => void;
}) {
  const [intent, setIntent] = useState<Intent>(null);
  const [Menu, setMenu] = useState<Menu | null>(null);
  // The stand-in stays mounted until the select's code is there, so it keeps the focus and sees
  // the click or key that should open the select.
  const want = (open: boolean, focus: boolean) => {
    setIntent((prev) => ({
      open: open || (prev?.open ?? false),
      focus: focus || (prev?.focus ?? false),
    }));
    void loadMenu().then((menu) => setMenu(() => menu));
  };
  if (Menu && intent)
    return <Menu value={value} onChange={onChange} open={intent.open} focus={intent.focus} />;
  return (
    <StandIn
      value={value}
      onPoint={() => want(false, false)}
      onFocus={() => want(false, true)}
      onOpen={() => want(true, true)}
    />
  );
}

// The closed look of MUI's small outlined select: 40 px high, floating label in the outline's notch,
// the drop-down arrow on the right.
function StandIn({
  value,
  onPoint,
  onFocus,
  onOpen,
}: {
  value: SoundMode;
  onPoint: () => void;
  onFocus: () => void;
  onOpen: () => void;
}): ReactElement {
  const onKeyDown = (e: KeyboardEvent) => {
    if ([' ', 'Enter', 'ArrowDown', 'ArrowUp'].includes(e.key)) {
      e.preventDefault();
      onOpen();
    }
  };
  return (
    <Box
      role="combobox"
      tabIndex={0}
      aria-label="Sound"
      aria-expanded={false}
      aria-haspopup="listbox"
      onPointerEnter={onPoint}
      onFocus={onFocus}
      onMouseDown={onOpen}
      onKeyDown={onKeyDown}
      sx={{
        position: 'relative',
        boxSizing: 'border-box',
        minWidth: 120,
        height: 40,
        pl: '14px',
        pr: '32px',
        display: 'flex',
        alignItems: 'center',
        border: 1,
        borderColor: 'action.disabled',
        borderRadius: 1,
        cursor: 'pointer',
        typography: 'body1',
        '&:hover': { borderColor: 'text.primary' },
      }}
    >
      <Box
        component="span"
        aria-hidden="true"
        sx={{
          position: 'absolute',
          top: -9,
          left: 9,
          px: '5px',
          fontSize: '0.75rem',
          lineHeight: '16px',
          color: 'text.secondary',
          bgcolor: 'background.paper',
        }}
      >
        Sound
      </Box>
      {SOUND_MODE_LABELS[value]}
      <Box
        component="svg"
        viewBox="0 0 24 24"
        aria-hidden="true"
        sx={{
          position: 'absolute',
          right: 7,
          width: 24,
          height: 24,
          fill: 'currentColor',
          color: 'action.active',
        }}
      >
        <path d="M7 10l5 5 5-5z" />
      </Box>
    </Box>
  );
}
