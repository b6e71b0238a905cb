import { TX_POWER_GROUPS, txPowerGroup, type Packet, type TxPowerGroupId } from '@tinygs/contracts';

export const NO_PACKETS_TEXT = 'No packets yet.';

export function txPowerGroupLabel(id: TxPowerGroupId): string {
  return TX_POWER_GROUPS.find((g) => g.id === id)?.label ?? id;
}

export interface TxPowerGroupCount {
  id: TxPowerGroupId;
  label: string;
  count: number;
}

/** Groups in the fixed order of TX_POWER_GROUPS, only those that occur. */
export function countByTxPowerGroup(packets: readonly Packet[]): TxPowerGroupCount[] {
  const counts = new Map<TxPowerGroupId, number>();
  for (const packet of packets) {
    const id = txPowerGroup(packet);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return TX_POWER_GROUPS.filter((g) => counts.has(g.id)).map((g) => ({
    id: g.id,
    label: g.label,
    count: counts.get(g.id) ?? 0,
  }));
}

/** Transmit power in mW: the packet's own field, else the decoder's normalised tinygsTxPower. */
export function txPowerMw(packet: { txPower?: number | null; parsed?: unknown }): number | null {
  if (typeof packet.txPower === 'number') return packet.txPower;
  const parsed = packet.parsed;
  if (typeof parsed !== 'object' || parsed === null) return null;
  const payload: unknown = (parsed as { payload?: unknown }).payload;
  if (typeof payload !== 'object' || payload === null) return null;
  const value: unknown = (payload as Record<string, unknown>).tinygsTxPower;
  return typeof value === 'number' ? value : null;
}
