import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** A titled block of a detail page; the heading labels the region for screen readers. */
export function Section({
  title,
  children,
  id,
}: {
  title: string;
  children: ReactNode;
  id: string;
}) {
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={id}
      sx={{ p: { xs: 1.5, sm: 2 }, flex: 1, minWidth: 0 }}
    >
      <Typography id={id} variant="h2" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
