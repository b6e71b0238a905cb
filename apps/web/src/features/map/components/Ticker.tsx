import { Chip, Stack } from '@mui/material';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { LiveActivity } from '../lib/activity';

/** Satellites that just delivered a packet; each item leaves after TICKER_ITEM_MS. */
export function Ticker({ activity }: { activity: LiveActivity }) {
  const items = useSyncExternalStore(activity.subscribe, activity.ticker);
  if (items.length === 0) return null;
  return (
    <Stack direction="column" spacing={0.5} aria-live="polite" data-testid="packet-ticker">
      {items.map((item) => (
        <Chip
          key={item.key}
          size="small"
          color="warning"
          clickable
          component={Link}
          to={`/packet/${item.packetId}`}
          label={item.satellite}
        />
      ))}
    </Stack>
  );
}
