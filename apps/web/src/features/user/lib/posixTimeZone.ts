// Station firmware wants a POSIX TZ string (e.g. 'CET-1CEST,M3.5.0,M10.5.0/3'); people pick an IANA
// zone name. Instead of shipping a table of ~400 zones, the browser's own time-zone data (Intl) is
// asked for each zone's offsets and DST transitions over the coming years, and the POSIX rule that
// reproduces those transitions is derived from them.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const SCAN_STEP_MS = 7 * DAY_MS;
/** Enough consecutive years for every weekday to fall on every date of the month at least once. */
const SAMPLE_YEARS = 8;
/** Locales whose CLDR data have letter abbreviations (CET, BST, EST, AEST, IST, JST...). */
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-NZ', 'en-IN', 'en-IE', 'ja-JP'];

interface Transition {
  /** UTC epoch ms of the first minute with the new offset */
  at: number;
  /** UTC offsets in minutes before and after */
  from: number;
  to: number;
}

interface Rule {
  month: number;
  /** 1-4, or 5 = last */
  week: number;
  /** 0 = Sunday */
  weekday: number;
  /** seconds after local midnight, may be negative or beyond 24 h */
  time: number;
}

function offsetReader(zone: string): (epochMs: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (epochMs) => {
    const whole = Math.floor(epochMs / 1000) * 1000;
    const fields: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(whole)))
      fields[part.type] = Number(part.value);
    const wall = Date.UTC(
      fields.year ?? 1970,
      (fields.month ?? 1) - 1,
      fields.day ?? 1,
      fields.hour ?? 0,
      fields.minute ?? 0,
      fields.second ?? 0,
    );
    return Math.round((wall - whole) / MINUTE_MS);
  };
}

function transitionsOfYear(offsetAt: (t: number) => number, year: number): Transition[] {
  const found: Transition[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let t = Date.UTC(year, 0, 1);
  let offset = offsetAt(t);
  while (t < end) {
    const next = Math.min(t + SCAN_STEP_MS, end);
    const nextOffset = offsetAt(next);
    if (nextOffset !== offset) {
      // Binary search over whole minutes for the first one with the new offset.
      let lo = t / MINUTE_MS;
      let hi = next / MINUTE_MS;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetAt(mid * MINUTE_MS) === offset) lo = mid;
        else hi = mid;
      }
      found.push({ at: hi * MINUTE_MS, from: offset, to: nextOffset });
    }
    t = next;
    offset = nextOffset;
  }
  return found;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The rules that could describe a transition, most natural first. */
function candidateRules(transition: Transition): Rule[] {
  const wall = new Date(transition.at + transition.from * MINUTE_MS);
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth() + 1;
  const seconds = wall.getUTCHours() * 3600 + wall.getUTCMinutes() * 60 + wall.getUTCSeconds();
  const rules: Rule[] = [];
  // Shifting the day by one and the time by 24 h describes the same instant; rules like
  // "Saturday at 24:00" or "Thursday at 26:00" need it.
  for (const shift of [0, -1, 1]) {
    const day = wall.getUTCDate() + shift;
    if (day < 1 || day > daysInMonth(year, month)) continue;
    const weekday = (wall.getUTCDay() + shift + 7) % 7;
    const time = seconds - shift * 86_400;
    const nth = Math.ceil(day / 7);
    if (day + 7 > daysInMonth(year, month)) rules.push({ month, week: 5, weekday, time });
    if (nth <= 4) rules.push({ month, week: nth, weekday, time });
  }
  return rules;
}

function ruleInstant(rule: Rule, year: number, fromOffset: number): number {
  const first = new Date(Date.UTC(year, rule.month - 1, 1)).getUTCDay();
  let day = 1 + ((rule.weekday - first + 7) % 7) + (rule.week - 1) * 7;
  if (rule.week === 5) {
    while (day > daysInMonth(year, rule.month)) day -= 7;
    while (day + 7 <= daysInMonth(year, rule.month)) day += 7;
  }
  return Date.UTC(year, rule.month - 1, day) + rule.time * 1000 - fromOffset * MINUTE_MS;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** POSIX offsets count west of Greenwich: UTC+1 is '-1', UTC-3:30 is '3:30'. */
function posixOffset(utcOffsetMin: number): string {
  const west = -utcOffsetMin;
  const abs = Math.abs(west);
  const minutes = abs % 60;
  return `${west < 0 ? '-' : ''}${Math.floor(abs / 60)}${minutes ? `:${pad2(minutes)}` : ''}`;
}

function posixRule(rule: Rule): string {
  const base = `M${rule.month}.${rule.week}.${rule.weekday}`;
  if (rule.time === 7200) return base; // 02:00 is the POSIX default
  const abs = Math.abs(rule.time);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const text = `${h}${m || s ? `:${pad2(m)}` : ''}${s ? `:${pad2(s)}` : ''}`;
  return `${base}/${rule.time < 0 ? '-' : ''}${text}`;
}

/** A letter abbreviation from the browser's locale data, else the quoted numeric form (<+0530>). */
function abbreviation(zone: string, epochMs: number, utcOffsetMin: number): string {
  for (const locale of ABBREVIATION_LOCALES) {
    try {
      const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
        .formatToParts(new Date(epochMs))
        .find((part) => part.type === 'timeZoneName')?.value;
      if (name && /^[A-Za-z]{3,}$/.test(name)) return name;
    } catch {
      // locale not available in this browser
    }
  }
  const abs = Math.abs(utcOffsetMin);
  const minutes = abs % 60;
  const sign = utcOffsetMin < 0 ? '-' : '+';
  return `<${sign}${pad2(Math.floor(abs / 60))}${minutes ? pad2(minutes) : ''}>`;
}

function matchingRule(candidates: Rule[], observed: Transition[]): Rule | undefined {
  return (
    candidates.find((rule) =>
      observed.every((t) => ruleInstant(rule, new Date(t.at).getUTCFullYear(), t.from) === t.at),
    ) ?? candidates[0]
  );
}

const cache = new Map<string, string>();

/**
 * POSIX TZ string for an IANA zone, following the rules the browser knows for the coming years.
 * Throws RangeError for a zone the browser does not know.
 */
export function posixTimeZone(zone: string, fromYear = new Date().getUTCFullYear() + 1): string {
  const key = `${zone}|${fromYear}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const offsetAt = offsetReader(zone);
  const years = Array.from({ length: SAMPLE_YEARS }, (_, i) => fromYear + i);
  const perYear = years.map((year) => transitionsOfYear(offsetAt, year));
  const jan1 = Date.UTC(fromYear, 0, 1);

  let result: string;
  const regularDst = perYear.every(
    (list) =>
      list.length === 2 &&
      list[0]?.from === perYear[0]?.[0]?.from &&
      list[0]?.to === perYear[0]?.[0]?.to,
  );
  const sample = perYear[0] ?? [];
  if (regularDst && sample.length === 2) {
    const [a, b] = sample as [Transition, Transition];
    const std = Math.min(a.from, a.to);
    const dst = Math.max(a.from, a.to);
    const all = perYear.flat();
    const starts = all.filter((t) => t.from === std);
    const ends = all.filter((t) => t.from === dst);
    const startSample = a.from === std ? a : b;
    const endSample = a.from === std ? b : a;
    const start = matchingRule(candidateRules(startSample), starts);
    const end = matchingRule(candidateRules(endSample), ends);
    const stdName = abbreviation(zone, endSample.at, std);
    const dstName = abbreviation(zone, startSample.at, dst);
    const dstOffset = dst - std === 60 ? '' : posixOffset(dst);
    result = `${stdName}${posixOffset(std)}${dstName}${dstOffset}`;
    if (start && end) result += `,${posixRule(start)},${posixRule(end)}`;
  } else {
    // No DST, or irregular changes (e.g. suspended for Ramadan): the offset that holds longest.
    const held = new Map<number, number>();
    let t = jan1;
    let current = offsetAt(t);
    for (const change of perYear[0] ?? []) {
      held.set(current, (held.get(current) ?? 0) + change.at - t);
      t = change.at;
      current = change.to;
    }
    held.set(current, (held.get(current) ?? 0) + Date.UTC(fromYear + 1, 0, 1) - t);
    const offset = [...held.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? current;
    result = `${abbreviation(zone, jan1, offset)}${posixOffset(offset)}`;
  }
  cache.set(key, result);
  return result;
}

/** The zones this browser knows, for the picker. */
export function supportedTimeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
}

/** The visitor's own zone as a sensible default. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || '';
  } catch {
    return '';
  }
}
