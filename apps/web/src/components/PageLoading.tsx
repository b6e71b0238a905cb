import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { OrbitSymbol } from './icons/OrbitSymbol';

/** The rotating-orbit symbol while a screen loads. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  const mode = useTheme().palette.mode;
  return (
    <Box
      sx={{ display: 'flex', justifyContent: 'center', py: 6 }}
      role="progressbar"
      aria-label={label}
    >
      <OrbitSymbol size={48} theme={mode === 'dark' ? 'dark' : 'light'} />
    </Box>
  );
}
