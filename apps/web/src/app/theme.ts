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
        // MUI's default warning and info mains carry white text at 3.1:1 and 4.1:1; these keep
        // small chip labels (Test packet) above the 4.5:1 that WCAG AA asks for.
        warning: { main: '#b45309' },
        info: { main: '#01579b' },
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
