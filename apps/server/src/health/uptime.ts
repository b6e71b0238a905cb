// Uptime arithmetic over a station's transitions: which spans of a window it was online, and
// how much of each UTC day. Shared by the health call and the retention job that folds old
// transitions into per-day rows.

export const DAY_MS = 86_400_000;

export interface Transition {
  at: number;
  online: boolean;
}

export interface DayUptime {
  /** YYYY-MM-DD, UTC */
  day: string;
  dayStart: number;
  /** online milliseconds within the day's known part */
  onlineMs: number;
  /** the part of the day (within the window) whose state is known */
  knownMs: number;
  /** transitions to offline within the day */
  outages: number;
  /** the state at the end of the day (or of the window), null when unknown */
  onlineAtEnd: boolean | null;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * Per UTC day from the day of `from` to the day of `to` (exclusive end `to`): online and known
 * milliseconds. `initial` is the state at `from` (null: unknown until the first transition);
 * `transitions` are in time order, those outside [from, to) are ignored; time before `knownFrom`
 * is not counted (a station that did not exist yet).
 */
export function uptimeByDay(
  initial: boolean | null,
  transitions: readonly Transition[],
  from: number,
  to: number,
  knownFrom = from,
): DayUptime[] {
  const days: DayUptime[] = [];
  let state = initial;
  let i = 0;
  while (i < transitions.length && (transitions[i]?.at ?? 0) < from) i += 1;
  for (let dayStart = startOfUtcDay(from); dayStart < to; dayStart += DAY_MS) {
    const day: DayUptime = {
      day: utcDay(dayStart),
      dayStart,
      onlineMs: 0,
      knownMs: 0,
      outages: 0,
      onlineAtEnd: null,
    };
    const end = Math.min(dayStart + DAY_MS, to);
    let cursor = Math.max(dayStart, from);
    const count = (until: number) => {
      const start = Math.max(cursor, knownFrom);
      if (state !== null && until > start) {
        day.knownMs += until - start;
        if (state) day.onlineMs += until - start;
      }
      cursor = until;
    };
    for (let t = transitions[i]; t && t.at < end; t = transitions[++i]) {
      count(t.at);
      if (!t.online && state !== false) day.outages += 1;
      state = t.online;
    }
    count(end);
    day.onlineAtEnd = state;
    days.push(day);
  }
  return days;
}

/** Online share (0-100) of known time, one decimal; null when nothing is known. */
export function percent(onlineMs: number, knownMs: number): number | null {
  return knownMs > 0 ? Math.round((onlineMs / knownMs) * 1000) / 10 : null;
}
