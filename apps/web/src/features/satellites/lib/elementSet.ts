// Age of a satellite's element set for the satellite page. The server sends tleEpoch; an answer
// without it (the live network's) still has line 1, whose columns 19-32 hold the epoch.
import { isTleStale } from '@tinygs/contracts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** YYDDD.DDDDDDDD of TLE line 1 as epoch ms; null when the field is not one. */
export function epochOfLine1(line1: string): number | null {
  const match = /^(\d{2})(\d{3}\.\d+)$/.exec(line1.slice(18, 32).trim());
  if (!match) return null;
  const yy = Number(match[1]);
  const year = yy < 57 ? 2000 + yy : 1900 + yy;
  const day = Number(match[2]);
  return day >= 1 && day < 367 ? Date.UTC(year, 0, 1) + (day - 1) * DAY_MS : null;
}

export interface ElementSetAge {
  epochMs: number;
  /** "3 days old", "5 hours old", "in 2 hours" */
  ageText: string;
  stale: boolean;
}

export function elementSetAge(
  satellite: { tle: readonly string[] | null; tleEpoch?: number | null; tleStale?: boolean },
  now: number = Date.now(),
): ElementSetAge | null {
  const epochMs =
    satellite.tleEpoch ?? (satellite.tle?.[1] ? epochOfLine1(satellite.tle[1]) : null);
  if (epochMs === null) return null;
  const age = now - epochMs;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  let ageText: string;
  if (age < 0) ageText = `in ${unit(Math.ceil(-age / HOUR_MS), 'hour')}`;
  else if (age < DAY_MS) ageText = `${unit(Math.floor(age / HOUR_MS), 'hour')} old`;
  else ageText = `${unit(Math.floor(age / DAY_MS), 'day')} old`;
  return { epochMs, ageText, stale: satellite.tleStale ?? isTleStale(epochMs, now) };
}
