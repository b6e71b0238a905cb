import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { LiveActivity } from '../lib/activity';

// A small pill per satellite, drawn with the ButtonBase the first visit already loads (focus ring,
// ripple) rather than MUI's Chip, which would be one more chunk on the first visit's map.
const PILL_SX = {
  alignSelf: 'flex-start',
  height: 24,
  px: 1.25,
  borderRadius: 12,
  typography: 'body2',
  fontSize: '0.8125rem',
  whiteSpace: 'nowrap',
  bgcolor: 'warning.main',
  color: 'warning.contrastText',
  '&:hover': { bgcolor: 'warning.dark' },
} as const;

/** Satellites that just delivered a packet; each item leaves after TICKER_ITEM_MS. */
export function Ticker({ activity }: { activity: LiveActivity }) {
  const items = useSyncExternalStore(activity.subscribe, activity.ticker);
  if (items.length === 0) return null;
  return (
    <Stack direction="column" spacing={0.5} aria-live="polite" data-testid="packet-ticker">
      {items.map((item) => (
        <ButtonBase
          key={item.key}
          component={Link}
          to={`/packet/${item.packetId}`}
          focusRipple
          sx={PILL_SX}
        >
          {item.satellite}
        </ButtonBase>
      ))}
    </Stack>
  );
}
