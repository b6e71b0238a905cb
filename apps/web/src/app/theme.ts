import { createTheme } from '@mui/material/styles';

// Both colour schemes are emitted as CSS variables so switching never re-renders the tree, and
// 'system' (the default mode) follows prefers-color-scheme.
export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'data-color-scheme' },
  colorSchemes: {
    light: {
      palette: {
        primary: { main: '#1565c0' },
        secondary: { main: '#00838f' },
        background: { default: '#f4f6f8' },
      },
    },
    dark: {
      palette: {
        primary: { main: '#64b5f6' },
        secondary: { main: '#4dd0e1' },
        background: { default: '#0f1418', paper: '#161d23' },
      },
    },
  },
  shape: { borderRadius: 10 },
  typography: {
    h1: { fontSize: '2rem', fontWeight: 600 },
    h2: { fontSize: '1.5rem', fontWeight: 600 },
    h3: { fontSize: '1.25rem', fontWeight: 600 },
  },
});
