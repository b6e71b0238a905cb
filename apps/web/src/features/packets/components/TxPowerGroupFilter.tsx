import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { TxPowerGroupId } from '@tinygs/contracts';
import type { TxPowerGroupCount } from '../lib/txPower';

interface TxPowerGroupFilterProps {
  groups: TxPowerGroupCount[];
  total: number;
  value: TxPowerGroupId | null;
  onChange: (value: TxPowerGroupId | null) => void;
}

/** Chips of the transmit power groups with their packet counts; one selected at a time. */
export function TxPowerGroupFilter({ groups, total, value, onChange }: TxPowerGroupFilterProps) {
  return (
    <Stack
      direction="row"
      spacing={0.5}
      useFlexGap
      role="group"
      aria-label="Transmit power"
      sx={{ flexWrap: 'wrap', mb: 2 }}
    >
      <Chip
        label={`All (${total})`}
        clickable
        color={value === null ? 'primary' : 'default'}
        aria-pressed={value === null}
        onClick={() => onChange(null)}
      />
      {groups.map((group) => (
        <Chip
          key={group.id}
          label={`${group.label} (${group.count})`}
          clickable
          color={value === group.id ? 'primary' : 'default'}
          aria-pressed={value === group.id}
          onClick={() => onChange(value === group.id ? null : group.id)}
        />
      ))}
    </Stack>
  );
}
