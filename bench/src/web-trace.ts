// bench:web's reading of a Chromium trace: main-thread script time before the first contentful
// paint. Script time is the union of the renderer main thread's script events (classic scripts:
// EvaluateScript, v8.compile, FunctionCall; module scripts: v8.compileModule, v8.evaluateModule),
// so a compile nested inside an evaluation counts once; only the part before the FCP mark counts.
import type { CDPSession } from 'playwright-core';

export const TRACE_CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
  'loading',
].join(',');

const SCRIPT_EVENTS = new Set([
  'EvaluateScript',
  'v8.compile',
  'FunctionCall',
  'v8.compileModule',
  'v8.evaluateModule',
]);

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { frame?: string; data?: { frame?: string } };
}

/** Starts tracing on a browser-level session (the page's renderer is in a process of its own). */
export async function startTrace(session: CDPSession): Promise<void> {
  await session.send('Tracing.start', {
    categories: TRACE_CATEGORIES,
    transferMode: 'ReturnAsStream',
  });
}

/** Ends tracing and reads the whole trace back from its stream. */
export async function endTrace(session: CDPSession): Promise<TraceEvent[]> {
  const complete = new Promise<string>((resolve) => {
    session.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream ?? ''));
  });
  await session.send('Tracing.end');
  const stream = await complete;
  let text = '';
  for (;;) {
    const chunk = await session.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  await session.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

export interface ScriptBeforeFcp {
  /** ms of main-thread script (union of the events) before the FCP mark; NaN without FCP */
  scriptMs: number;
  /** the same events' time by name (overlapping, so not additive), for the record */
  byName: Record<string, number>;
}

/** Main-thread script time before the first contentful paint, from one page load's trace. */
export function scriptBeforeFcp(events: TraceEvent[]): ScriptBeforeFcp {
  const fcp = events
    .filter((e) => e.name === 'firstContentfulPaint')
    .sort((a, b) => a.ts - b.ts)[0];
  if (!fcp) return { scriptMs: Number.NaN, byName: {} };
  const onMain = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid);
  // Complete events carry their duration; begin/end pairs are matched per name on the thread.
  const spans: [number, number, string][] = [];
  const open = new Map<string, number[]>();
  for (const e of onMain.sort((a, b) => a.ts - b.ts)) {
    if (!SCRIPT_EVENTS.has(e.name)) continue;
    if (e.ph === 'X') spans.push([e.ts, e.ts + (e.dur ?? 0), e.name]);
    else if (e.ph === 'B') open.set(e.name, [...(open.get(e.name) ?? []), e.ts]);
    else if (e.ph === 'E') {
      const start = open.get(e.name)?.pop();
      if (start !== undefined) spans.push([start, e.ts, e.name]);
    }
  }
  const clipped = spans
    .filter(([start]) => start < fcp.ts)
    .map(([start, end, name]): [number, number, string] => [start, Math.min(end, fcp.ts), name])
    .sort((a, b) => a[0] - b[0]);
  const byName: Record<string, number> = {};
  let total = 0;
  let curStart = Number.NaN;
  let curEnd = Number.NaN;
  for (const [start, end, name] of clipped) {
    byName[name] = (byName[name] ?? 0) + (end - start) / 1000;
    if (Number.isNaN(curEnd) || start > curEnd) {
      if (!Number.isNaN(curEnd)) total += curEnd - curStart;
      curStart = start;
      curEnd = end;
    } else curEnd = Math.max(curEnd, end);
  }
  if (!Number.isNaN(curEnd)) total += curEnd - curStart;
  for (const k of Object.keys(byName)) byName[k] = Math.round((byName[k] ?? 0) * 10) / 10;
  return { scriptMs: total / 1000, byName };
}
