import Box from '@mui/material/Box';

/** The three TLE lines, only when all three exist. */
export function TleBlock({ tle }: { tle: readonly string[] | null }) {
  if (!tle || tle.length !== 3 || tle.some((line) => line.trim() === '')) return null;
  return (
    <Box
      component="pre"
      tabIndex={0}
      aria-label="Two-line element set"
      sx={{
        m: 0,
        p: 1.5,
        bgcolor: 'action.hover',
        borderRadius: 1,
        overflowX: 'auto',
        fontSize: '0.8rem',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      }}
    >
      {tle.join('\n')}
    </Box>
  );
}
