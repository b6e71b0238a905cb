import IconButton from '@mui/material/IconButton';
import { useColorScheme } from '@mui/material/styles';
import { DarkModeIcon, LightModeIcon } from '../../components/icons/uiIcons';

/** Starts from the system preference; a click pins the opposite scheme (remembered by MUI). */
export function ThemeToggle() {
  const { mode, systemMode, setMode } = useColorScheme();
  const resolved = mode === 'system' || !mode ? (systemMode ?? 'light') : mode;
  const next = resolved === 'dark' ? 'light' : 'dark';
  return (
    <IconButton
      color="inherit"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => setMode(next)}
    >
      {resolved === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
    </IconButton>
  );
}
