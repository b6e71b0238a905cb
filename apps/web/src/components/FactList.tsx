import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

export interface Fact {
  label: string;
  value: ReactNode;
}

/** Label/value pairs as a description list: two columns when there is room, stacked at 360 px. */
export function FactList({ facts, label }: { facts: Fact[]; label?: string }) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 2,
        rowGap: { xs: 0, sm: 0.5 },
        m: 0,
        '& dt': { color: 'text.secondary', fontWeight: 500 },
        '& dd': { m: 0, mb: { xs: 1, sm: 0 }, wordBreak: 'break-word' },
      }}
    >
      {facts.map((fact) => (
        <Box key={fact.label} sx={{ display: 'contents' }}>
          <dt>{fact.label}</dt>
          <dd>{fact.value}</dd>
        </Box>
      ))}
    </Box>
  );
}
