// Computing the leaderboards from their running aggregates (repositories/public/leaderboard-reads.ts).
// A 30-day station board would otherwise aggregate every station's row of 30 days at once (300,000
// rows for 10,000 busy stations; a third of a second of SQLite on the event loop). Instead the days
// before yesterday, which no longer change, are read once per UTC day, one day per statement
// (yielding in between), and kept per station; each ranking then reads yesterday's and today's rows
// and adds them.
import type {
  LeaderboardBoard,
  LeaderboardEntry,
  LeaderboardPeriod,
  LeaderboardResponse,
} from '@tinygs/contracts';
import { LEADERBOARD_DAYS } from '@tinygs/contracts';
import type { Db } from '../../db/connect';
import { DAY_MS, startOfUtcDay, utcDay } from '../../health/uptime';
import {
  satellitesHeardPage,
  stationDayRows,
  stationNames,
  topSatellites,
  topStationsAllTime,
  type StationDayRow,
  type StationRanked,
  type Window,
} from '../../repositories/public/leaderboard-reads';

/**
 * Stations per read: a few milliseconds of SQLite each (a day's rows; satellites heard, about
 * 10,000 rows when each station heard 40 satellites), with a yield to the event loop between reads.
 */
const DAY_PAGE_STATIONS = 2_500;
const HEARD_PAGE_STATIONS = 250;

const yieldToEventLoop = () => new Promise((resolve) => setImmediate(resolve));

interface StationTotals {
  packets: number;
  distanceKm: number;
}
type TotalsByStation = Map<string, StationTotals>;

function addRows(totals: TotalsByStation, rows: readonly StationDayRow[]): void {
  for (const r of rows) {
    const t = totals.get(r.stationId);
    const distanceKm = r.recordDistanceKm ?? 0;
    if (!t) totals.set(r.stationId, { packets: r.confirmedPackets, distanceKm });
    else {
      t.packets += r.confirmedPackets;
      if (distanceKm > t.distanceKm) t.distanceKm = distanceKm;
    }
  }
}

/** 1-based ranks, equal values sharing one (1, 2, 2, 4). */
function ranked<T extends { value: number }>(
  rows: readonly T[],
  entry: (row: T) => Omit<LeaderboardEntry, 'rank' | 'value'>,
): LeaderboardEntry[] {
  let rank = 0;
  return rows.map((row, i) => {
    if (i === 0 || row.value !== rows[i - 1]?.value) rank = i + 1;
    return { rank, value: row.value, ...entry(row) };
  });
}

export class LeaderboardReader {
  /** per station, the window's days before yesterday; for one window start */
  private settled: { fromDay: string; totals: Promise<TotalsByStation> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly pages = { day: DAY_PAGE_STATIONS, heard: HEARD_PAGE_STATIONS },
  ) {}

  async read(
    board: LeaderboardBoard,
    period: LeaderboardPeriod,
    limit: number,
    now = Date.now(),
  ): Promise<LeaderboardResponse> {
    const today = startOfUtcDay(now);
    const fromMs = today - (LEADERBOARD_DAYS - 1) * DAY_MS;
    const window: Window | null = period === '30d' ? { fromDay: utcDay(fromMs), fromMs } : null;
    let entries: LeaderboardEntry[];
    if (board === 'satellite-packets') {
      entries = ranked(await topSatellites(this.db, window, limit), (s) => ({
        satellite: { name: s.name, displayName: s.displayName },
      }));
    } else {
      let stations: StationRanked[];
      if (board === 'satellites')
        stations = await this.satellitesHeard(window?.fromMs ?? null, limit);
      else if (!window) stations = await topStationsAllTime(this.db, board, limit);
      else stations = await this.windowStations(board, window.fromDay, today, limit);
      entries = ranked(stations, (s) => ({
        station: { id: s.id, name: s.name, userId: s.userId },
      }));
    }
    return { board, period, from: window?.fromMs ?? null, computedAt: now, entries };
  }

  private settledTotals(fromDay: string, yesterday: number): Promise<TotalsByStation> {
    if (this.settled?.fromDay !== fromDay) {
      const totals = (async () => {
        const byStation: TotalsByStation = new Map();
        for (let day = Date.parse(fromDay); day < yesterday; day += DAY_MS)
          await this.addDay(byStation, utcDay(day));
        return byStation;
      })();
      this.settled = { fromDay, totals };
      // A failed read is tried again by the next ranking.
      totals.catch(() => {
        if (this.settled?.totals === totals) this.settled = null;
      });
    }
    return this.settled.totals;
  }

  private async windowStations(
    board: 'packets' | 'distance',
    fromDay: string,
    today: number,
    limit: number,
  ): Promise<StationRanked[]> {
    const yesterday = today - DAY_MS;
    const settled = await this.settledTotals(fromDay, yesterday);
    // Yesterday and today apart, added to the kept totals as they are read (never copied).
    const recent: TotalsByStation = new Map();
    for (const day of [yesterday, today]) await this.addDay(recent, utcDay(day));
    const value = (t: StationTotals, r: StationTotals | undefined) =>
      board === 'packets'
        ? t.packets + (r?.packets ?? 0)
        : Math.max(t.distanceKm, r?.distanceKm ?? 0);
    const values: { id: string; value: number }[] = [];
    for (const [id, t] of settled) values.push({ id, value: value(t, recent.get(id)) });
    for (const [id, r] of recent)
      if (!settled.has(id)) values.push({ id, value: value(r, undefined) });
    return this.rank(values, limit);
  }

  /** Adds one day's rows, read a page of stations at a time. */
  private async addDay(totals: TotalsByStation, day: string): Promise<void> {
    for (let after = ''; ;) {
      const page = await stationDayRows(this.db, day, after, this.pages.day);
      addRows(totals, page);
      const last = page.at(-1);
      if (!last || page.length < this.pages.day) return;
      after = last.stationId;
      await yieldToEventLoop();
    }
  }

  /** Satellites heard per station, read a page of stations at a time with a yield in between. */
  private async satellitesHeard(fromMs: number | null, limit: number): Promise<StationRanked[]> {
    const values: { id: string; value: number }[] = [];
    for (let after = ''; ;) {
      const page = await satellitesHeardPage(this.db, fromMs, after, this.pages.heard);
      for (const r of page) values.push({ id: r.stationId, value: r.value });
      const last = page.at(-1);
      if (!last || page.length < this.pages.heard) break;
      after = last.stationId;
      await yieldToEventLoop();
    }
    return this.rank(values, limit);
  }

  /** The top `limit` existing stations of per-station values, highest first, ties by id. */
  private async rank(
    values: readonly { id: string; value: number }[],
    limit: number,
  ): Promise<StationRanked[]> {
    // Deleted stations may still be among kept totals: read names until `limit` exist, taking
    // more of the best values only when some are missing.
    const out: StationRanked[] = [];
    for (let wanted = limit, done = 0; out.length < limit; wanted *= 2) {
      const best = topValues(values, wanted);
      const part = best.slice(done);
      if (part.length === 0) break;
      done = best.length;
      const named = new Map(
        (
          await stationNames(
            this.db,
            part.map((s) => s.id),
          )
        ).map((s) => [s.id, s]),
      );
      for (const s of part) {
        const station = named.get(s.id);
        if (station && out.length < limit) out.push({ ...station, value: s.value });
      }
    }
    return out;
  }
}

/** Higher value first, then id. */
function before(a: { id: string; value: number }, b: { id: string; value: number }): boolean {
  return a.value > b.value || (a.value === b.value && a.id < b.id);
}

/**
 * The `n` best positive values in order (higher first, ties by id), in one pass keeping the best
 * so far sorted: tens of thousands of stations are never sorted whole for a top hundred.
 */
export function topValues<T extends { id: string; value: number }>(
  values: readonly T[],
  n: number,
): T[] {
  const best: T[] = [];
  for (const v of values) {
    if (!(v.value > 0)) continue;
    const worst = best[best.length - 1];
    if (best.length >= n && worst && !before(v, worst)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(best[mid] as T, v)) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, v);
    if (best.length > n) best.pop();
  }
  return best;
}
