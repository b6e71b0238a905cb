// Station statistics (GET /v1/station/{id}/statistics) as stacked bar data: one bar per day of the
// last 30 days, one stack segment per satellite.
import { STATION_STATS_DAYS, type StationStatistics } from '@tinygs/contracts';

export interface StackedDays {
  /** UTC days, oldest first (YYYY-MM-DD) */
  days: string[];
  series: { satellite: string; counts: number[] }[];
}

export function stackedDays(
  stats: StationStatistics,
  satellite: string,
  today = new Date(),
): StackedDays {
  const days: string[] = [];
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = STATION_STATS_DAYS - 1; i >= 0; i -= 1) {
    days.push(new Date(end - i * 86_400_000).toISOString().slice(0, 10));
  }
  const index = new Map(days.map((d, i) => [d, i]));
  const bySatellite = new Map<string, number[]>();
  for (const entry of stats) {
    const i = index.get(entry.day.slice(0, 10));
    if (i === undefined) continue;
    for (const frame of entry.frames) {
      if (satellite && frame.satellite !== satellite) continue;
      let counts = bySatellite.get(frame.satellite);
      if (!counts) {
        counts = new Array<number>(days.length).fill(0);
        bySatellite.set(frame.satellite, counts);
      }
      counts[i] = (counts[i] ?? 0) + 1;
    }
  }
  const series = [...bySatellite.entries()]
    .map(([name, counts]) => ({ satellite: name, counts }))
    .sort((a, b) => a.satellite.localeCompare(b.satellite));
  return { days, series };
}
