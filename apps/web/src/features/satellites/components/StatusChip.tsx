import Chip from '@mui/material/Chip';
import type { SatelliteStatus } from '@tinygs/contracts';

type ChipColor = 'success' | 'info' | 'warning' | 'default' | 'secondary' | 'primary';

const STATUS_COLOR: Record<SatelliteStatus, ChipColor> = {
  Supported: 'success',
  SupportedSL: 'success',
  Balloon: 'success',
  Future: 'info',
  BFuture: 'info',
  Experimental: 'warning',
  Surveillance: 'secondary',
  Inactive: 'default',
  BInactive: 'default',
};

export function StatusChip({ status }: { status: SatelliteStatus }) {
  return <Chip size="small" label={status} color={STATUS_COLOR[status]} />;
}
