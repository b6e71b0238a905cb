// The status timeline of a station's health answer: consecutive spans of the window, each online,
// offline or unknown (before the station existed, or before anything was recorded).
import type { StationHealth } from '@tinygs/contracts';

export interface TimelineSpan {
  start: number;
  end: number;
  online: boolean | null;
}

export function timelineSpans(health: StationHealth, createdAt: number): TimelineSpan[] {
  const spans: TimelineSpan[] = [];
  const push = (start: number, end: number, online: boolean | null) => {
    if (end <= start) return;
    const last = spans.at(-1);
    if (last && last.online === online && last.end === start) last.end = end;
    else spans.push({ start, end, online });
  };
  let state: boolean | null = health.onlineAtStart;
  let cursor = health.from;
  const step = (until: number) => {
    if (until <= cursor) return;
    push(cursor, Math.min(until, Math.max(cursor, createdAt)), null);
    push(Math.max(cursor, createdAt), until, state);
    cursor = until;
  };
  for (const t of health.transitions) {
    if (t.at < health.from || t.at > health.to) continue;
    step(t.at);
    state = t.online;
  }
  step(health.to);
  return spans;
}
