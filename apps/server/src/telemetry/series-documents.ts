// A telemetry series answer (GET /v1/satellite/{name}/telemetry) from the rows of its read, as JSON
// or CSV text. Built where the rows are read (db/read-documents.ts: on SQLite's read thread, on
// PostgreSQL on the event loop), by these functions alone, so both give the same bytes.
import type { TelemetryBucket, TelemetrySeries } from '@tinygs/contracts';

/** What the answer says of itself besides its points; `limit`: raw samples kept at most. */
export interface SeriesHead {
  satellite: string;
  field: string;
  bucket: TelemetryBucket;
  from: number;
  to: number;
  limit: number;
}

/**
 * The series from its rows, column by column: raw samples (at, value), of which the first `limit`
 * are kept (`truncated` when there were more), or buckets (start, min, max, sum, count).
 */
export function seriesOf(
  head: SeriesHead,
  columns: readonly ArrayLike<unknown>[],
  count: number,
): TelemetrySeries {
  const column = (c: number, n: number) => {
    const values = columns[c] as ArrayLike<number>;
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = values[i] as number;
    return out;
  };
  const { satellite, field, bucket, from, to } = head;
  const series = { satellite, field, bucket, from, to };
  if (bucket === 'raw') {
    const n = Math.min(count, head.limit);
    return { ...series, t: column(0, n), avg: column(1, n), truncated: count > head.limit };
  }
  const [sum, counts] = [column(3, count), column(4, count)];
  return {
    ...series,
    t: column(0, count),
    avg: sum.map((s, i) => s / (counts[i] as number)),
    min: column(1, count),
    max: column(2, count),
    count: counts,
    truncated: false,
  };
}

export function seriesJson(
  head: SeriesHead,
  columns: readonly ArrayLike<unknown>[],
  count: number,
): string {
  return JSON.stringify(seriesOf(head, columns, count));
}

/** The series as CSV: time (ISO 8601, UTC) and value, or min, avg, max and count per bucket. */
export function seriesCsv(
  head: SeriesHead,
  columns: readonly ArrayLike<unknown>[],
  count: number,
): string {
  const s = seriesOf(head, columns, count);
  const time = (i: number) => new Date(s.t[i] ?? 0).toISOString();
  const lines =
    s.bucket === 'raw'
      ? ['time,value', ...s.t.map((_, i) => `${time(i)},${s.avg[i]}`)]
      : [
          'time,min,avg,max,count',
          ...s.t.map(
            (_, i) => `${time(i)},${s.min?.[i]},${s.avg[i]},${s.max?.[i]},${s.count?.[i]}`,
          ),
        ];
  return `${lines.join('\n')}\n`;
}
