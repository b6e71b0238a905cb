// Month partitions of packets and receptions on PostgreSQL (migration 0016). Packet ids begin with
// eight hex digits of epoch seconds (network/ingest/packet-id.ts), so the ids of one UTC month are
// one range of strings in byte order: [hex(month start), hex(next month start)). packets are
// partitioned on id and receptions on packet_id with the same bounds, so a packet and its
// receptions always sit in the same month and leave together.

/** One UTC month: its start (epoch ms) and the id range of its partition. */
export interface PartitionMonth {
  /** `y2026m11`: the partition of table T for this month is T_y2026m11 */
  suffix: string;
  startMs: number;
  /** lower bound, inclusive: eight hex digits of the month's first second */
  from: string;
  /** upper bound, exclusive: eight hex digits of the next month's first second */
  to: string;
}

const SUFFIX = /^y(\d{4})m(\d{2})$/;

/** Eight lower-case hex digits of the epoch second `ms` falls in (what a packet id starts with). */
export function idPrefix(ms: number): string {
  return Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0');
}

/** The UTC month that contains `ms`, moved by `offset` months. */
export function partitionMonth(ms: number, offset = 0): PartitionMonth {
  const d = new Date(ms);
  const startMs = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1);
  const start = new Date(startMs);
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + 1;
  return {
    suffix: `y${year}m${String(month).padStart(2, '0')}`,
    startMs,
    from: idPrefix(startMs),
    to: idPrefix(Date.UTC(year, month, 1)),
  };
}

/** The month a partition suffix names, or null for anything else (the DEFAULT partition). */
export function monthOfSuffix(suffix: string): PartitionMonth | null {
  const m = SUFFIX.exec(suffix);
  if (!m) return null;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return null;
  return partitionMonth(Date.UTC(Number(m[1]), month - 1, 1));
}

/** The month a time-ordered packet id belongs to, or null when the id does not start with one. */
export function monthOfId(id: string): PartitionMonth | null {
  if (!/^[0-9a-f]{8}/.test(id)) return null;
  return partitionMonth(parseInt(id.slice(0, 8), 16) * 1000);
}

/** The months from `first` to `last` (inclusive), oldest first. */
export function monthsBetween(first: PartitionMonth, last: PartitionMonth): PartitionMonth[] {
  const out: PartitionMonth[] = [];
  for (let m = first; m.startMs <= last.startMs; m = partitionMonth(m.startMs, 1)) out.push(m);
  return out;
}

/** Months created ahead of the current one, so that rows never have to wait for a partition. */
export const PARTITION_MONTHS_AHEAD = 3;
