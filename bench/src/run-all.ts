// `npm run bench`: runs ingest, api (SQLite and PostgreSQL), sse, web, map and a short soak one
// after another, collects their results into bench/results/latest.json and rewrites the summary
// table at the top of docs/PERFORMANCE.md. Every row says how its figures came about in this run:
// the 1-min load average before and after the benchmark and the time it ran; a benchmark that
// failed (or wrote no results file) shows as FAILED without figures; one left out (--skip) shows
// its last results file's figures marked as skipped with that file's date. Pass flags are computed
// here from each row's figures and goal. api-postgres-large (1M and 10M packets on PostgreSQL)
// runs only when asked for: `npm run bench -- --with api-postgres-large`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { goalOf, meetsGoal, type Goal } from './api-goals';
import { machine, RESULTS_DIR, round, type Headline } from './machine';

const ROOT = join(RESULTS_DIR, '..', '..');
const DOC = join(ROOT, 'docs', 'PERFORMANCE.md');
const START = '<!-- bench:summary:start (written by `npm run bench`) -->';
const END = '<!-- bench:summary:end -->';

/**
 * name: its results file (bench/results/<name>.json); script: bench/src/<script>.ts; optIn: run
 * only when named with --with (otherwise its row shows its last results file as skipped).
 */
const BENCHES: { name: string; script: string; args: string[]; optIn?: boolean }[] = [
  { name: 'ingest', script: 'ingest', args: [] },
  { name: 'api', script: 'api', args: [] },
  // Needs the local PostgreSQL (TEST_DATABASE_URL); without it the row shows FAILED.
  { name: 'api-postgres', script: 'api', args: ['--postgres'] },
  // 1M then 10M packets (105M receptions) on PostgreSQL: about 45 GB of disk at its peak and half
  // an hour, so only with --with api-postgres-large.
  {
    name: 'api-postgres-large',
    script: 'api',
    args: ['--postgres', '--sizes', '1000000,10000000', '--out', 'api-postgres-large'],
    optIn: true,
  },
  { name: 'sse', script: 'sse', args: [] },
  { name: 'hostile', script: 'hostile', args: [] },
  { name: 'telemetry', script: 'telemetry', args: [] },
  { name: 'leaderboards', script: 'leaderboards', args: [] },
  // Needs PostgreSQL, Redis, Mosquitto and nginx (scripts/cluster.mjs installs the last two).
  { name: 'cluster', script: 'cluster', args: [] },
  { name: 'web', script: 'web', args: [] },
  { name: 'map', script: 'map', args: [] },
  { name: 'soak', script: 'soak', args: [] },
];

/** How a benchmark fared in this run of `npm run bench`. */
interface RunRecord {
  status: 'ran' | 'failed' | 'skipped';
  /** exit code or signal of a failed run, or why it counts as failed */
  detail?: string;
  loadBefore?: number;
  loadAfter?: number;
  durationS?: number;
}

const load1m = () => round(loadavg()[0] ?? 0, 2);

type Json = Record<string, unknown>;

function read(name: string): Json | null {
  const file = join(RESULTS_DIR, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Json) : null;
}

/** The ingest and api benchmarks predate the `headline` field: their lines are built here. */
function headlines(name: string, r: Json): Headline[] {
  if (Array.isArray(r.headlines)) return r.headlines as Headline[];
  if (r.headline) return [r.headline as Headline];
  if (name === 'ingest') {
    const ingest = r.ingest as { storedPerSecond: number; latencyMs: { p99: number } | null };
    const raw = (r.rawBroker as { receivedPerSecond: number } | null)?.receivedPerSecond ?? NaN;
    return [
      {
        benchmark: `Ingest, ${String(r.stations)} stations: receptions stored/s`,
        figure: '/s',
        value: ingest.storedPerSecond,
        goal: '>= 5000',
        ceiling: 'raw broker pass-through (msg/s)',
        ceilingValue: raw,
        ratio: round(ingest.storedPerSecond / raw, 3),
        pass: ingest.storedPerSecond >= 5000,
      },
      {
        benchmark: 'Ingest: publish -> SSE p99 (ms)',
        figure: 'ms',
        value: ingest.latencyMs?.p99 ?? NaN,
        goal: '< 250',
        ceiling: '',
        ceilingValue: NaN,
        ratio: NaN,
        pass: (ingest.latencyMs?.p99 ?? Infinity) < 250,
      },
      ...(r.capacity
        ? [
            {
              benchmark: 'Ingest capacity, closed loop: receptions stored/s',
              figure: '/s',
              value: (r.capacity as { storedPerSecond: number }).storedPerSecond,
              goal: '>= 1/3 of raw',
              ceiling: 'raw broker pass-through (msg/s)',
              ceilingValue: raw,
              ratio: Number(r.ratioToRaw),
              pass: Number(r.ratioToRaw) >= 1 / 3,
            },
          ]
        : []),
    ];
  }
  if (name === 'api' || name.startsWith('api-postgres')) {
    // The ceiling is the fastest honest one: a bare node:http process answering the same bytes
    // from memory over the same connections in the same run. The file-read-per-request server of
    // the same run is shown beside it. Results files of every version carry both rates.
    // Rows against the from-memory ceiling are judged by their route's goal (api-goals.ts), whatever
    // the file's age; files from before that ceiling name their own ratio goal.
    const shared = r.goals as {
      p99Ms: number;
      ratioToCeiling?: number;
      ratioToStaticFile?: number;
    };
    const rows = r.results as {
      packets: number;
      route: string;
      reqPerSec: number;
      p99Ms: number;
      errors?: number;
      memoryReqPerSec?: number;
      memoryP99Ms?: number;
      ceilingReqPerSec?: number;
      staticFileReqPerSec?: number;
    }[];
    return rows.map((x) => {
      const goals: Goal =
        x.memoryReqPerSec === undefined
          ? {
              p99Ms: shared.p99Ms,
              ratioToCeiling: shared.ratioToCeiling ?? shared.ratioToStaticFile ?? NaN,
            }
          : goalOf(x.route);
      const minRatio = goals.ratioToCeiling;
      const ceiling = x.memoryReqPerSec ?? x.ceilingReqPerSec ?? NaN;
      const ratio = x.reqPerSec / ceiling;
      const file =
        x.staticFileReqPerSec === undefined
          ? ''
          : `; read from a file per request: ${cell(round(x.staticFileReqPerSec))} req/s, ratio ${cell(round(x.reqPerSec / x.staticFileReqPerSec, 3))}`;
      const ceilingP99 = x.memoryP99Ms === undefined ? '' : `, p99 ${x.memoryP99Ms} ms`;
      return {
        benchmark: `API${name.startsWith('api-postgres') ? ' (PostgreSQL)' : ''} ${x.route}, ${x.packets.toLocaleString('en')} packets: req/s (p99 ${x.p99Ms} ms)`,
        figure: 'req/s',
        value: x.reqPerSec,
        goal:
          goals.p99Ms === undefined
            ? `>= ${minRatio} of ceiling`
            : `p99 < ${goals.p99Ms} ms, >= ${minRatio} of ceiling`,
        ceiling: `bare node:http, same bytes from memory (req/s${ceilingP99})${file}`,
        ceilingValue: ceiling,
        ratio: round(ratio, 3),
        pass: meetsGoal(goals, x, ratio),
      };
    });
  }
  return [];
}

// NaN is written as null in the results files.
const cell = (v: number | string | null) =>
  typeof v === 'number' ? (Number.isFinite(v) ? v.toLocaleString('en') : '') : (v ?? '');

/** The load averages a results file recorded (its shapes differ between benchmarks). */
function fileLoad(r: Json): { before?: number; after?: number } {
  const m = (r.machine ?? {}) as {
    loadAverage1m?: number;
    loadAverage1mAfter?: number;
    loadAverage1mAtStart?: number;
  };
  const own = r.loadAverage1m as { before?: number; after?: number } | undefined;
  if (own && typeof own === 'object') return own;
  // ingest: taken at its start and end; writeResult: at the process's start and at writing.
  if (m.loadAverage1mAfter !== undefined)
    return { before: m.loadAverage1m, after: m.loadAverage1mAfter };
  return { before: m.loadAverage1mAtStart, after: m.loadAverage1m };
}

const arrow = (before?: number, after?: number) =>
  before === undefined && after === undefined
    ? ''
    : `${cell(before ?? NaN) || '?'} -> ${cell(after ?? NaN) || '?'}`;
const duration = (s?: number) =>
  s === undefined || !Number.isFinite(s) ? '' : s >= 120 ? `${round(s / 60)} min` : `${s} s`;

function table(results: Record<string, Json | null>, runs: Record<string, RunRecord>): string {
  const m = machine();
  const lines = [
    START,
    `## Summary`,
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; machine: ${m.cpus} cores ` +
      `(${m.model}), ${m.ramGb} GiB RAM, Node ${m.node.replace(/^v/, '')}. Each row's date is in its ` +
      `results file (bench/results/<name>.json); medians of repeated runs; ceilings measured in the ` +
      `same run. "load" is the 1-min load average before and after the benchmark, "ran" its wall ` +
      `time in this run; a skipped benchmark's row shows its last results file (date, load and ` +
      `time as recorded there), a failed one no figures.`,
    '',
    '| benchmark | figure | goal | ceiling (same run) | ratio | pass | date | load | ran |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, r] of Object.entries(results)) {
    const run = runs[name] ?? { status: 'skipped' };
    const today = new Date().toISOString().slice(0, 10);
    if (run.status === 'failed') {
      lines.push(
        `| ${name} | FAILED in this run (${run.detail ?? 'no results'}); no figures | | | | FAIL | ${today} | ${arrow(run.loadBefore, run.loadAfter)} | ${duration(run.durationS)} |`,
      );
      continue;
    }
    if (!r) {
      lines.push(`| ${name} | skipped in this run; never run | | | | skipped | | | |`);
      continue;
    }
    const date = String(r.date ?? '').slice(0, 10);
    const load =
      run.status === 'ran'
        ? arrow(run.loadBefore, run.loadAfter)
        : arrow(fileLoad(r).before, fileLoad(r).after);
    const ran =
      run.status === 'ran' ? duration(run.durationS) : duration(r.durationS as number | undefined);
    for (const h of headlines(name, r)) {
      const ceiling = h.ceiling ? `${cell(h.ceilingValue)} (${h.ceiling})` : '';
      const verdict = h.pass ? 'pass' : 'FAIL';
      const pass = run.status === 'ran' ? verdict : `skipped in this run (${verdict} on ${date})`;
      lines.push(
        `| ${h.benchmark} | ${cell(h.value)} | ${h.goal} | ${ceiling} | ${cell(h.ratio)} | ${pass} | ${date} | ${load} | ${ran} |`,
      );
    }
  }
  lines.push(END);
  return lines.join('\n');
}

function main(): void {
  const { values } = parseArgs({
    options: {
      skip: { type: 'string', default: '' },
      with: { type: 'string', default: '' },
      'soak-minutes': { type: 'string', default: '2' },
    },
  });
  const skip = new Set(values.skip.split(',').filter(Boolean));
  const optedIn = new Set(values.with.split(',').filter(Boolean));
  for (const b of BENCHES) if (b.optIn && !optedIn.has(b.name)) skip.add(b.name);
  const runs: Record<string, RunRecord> = {};
  for (const b of BENCHES) {
    if (skip.has(b.name)) {
      runs[b.name] = { status: 'skipped' };
      continue;
    }
    const script = join(RESULTS_DIR, '..', 'src', `${b.script}.ts`);
    const args = b.name === 'soak' ? ['--minutes', values['soak-minutes']] : b.args;
    console.log(`\n=== ${b.name} ===`);
    const startedAt = Date.now();
    const loadBefore = load1m();
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: 'inherit',
      cwd: ROOT,
    });
    const record: RunRecord = {
      status: 'ran',
      loadBefore,
      loadAfter: load1m(),
      durationS: Math.round((Date.now() - startedAt) / 1000),
    };
    const written = Date.parse(String(read(b.name)?.date ?? ''));
    if (r.status !== 0) {
      record.status = 'failed';
      record.detail = `exit ${r.status ?? r.signal}`;
    } else if (!(written >= startedAt)) {
      // A results file older than this run is not this run's figures.
      record.status = 'failed';
      record.detail = 'wrote no results file';
    }
    runs[b.name] = record;
  }
  const results = Object.fromEntries(BENCHES.map((b) => [b.name, read(b.name)]));
  writeFileSync(
    join(RESULTS_DIR, 'latest.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: machine(),
        runs,
        results: Object.fromEntries(
          Object.entries(results).map(([n, r]) => [n, runs[n]?.status === 'failed' ? null : r]),
        ),
      },
      null,
      2,
    ) + '\n',
  );
  const summary = table(results, runs);
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Performance\n';
  const at = doc.indexOf(START);
  const end = doc.indexOf(END);
  let next: string;
  if (at >= 0 && end > at) next = doc.slice(0, at) + summary + doc.slice(end + END.length);
  else {
    // First run: the summary goes right under the title, the hand-written sections stay below it.
    const nl = doc.indexOf('\n');
    next =
      nl >= 0
        ? `${doc.slice(0, nl + 1)}\n${summary}\n${doc.slice(nl + 1)}`
        : `${doc}\n${summary}\n`;
  }
  writeFileSync(DOC, next);
  console.table(runs);
  console.log(`written: ${join(RESULTS_DIR, 'latest.json')}, ${DOC}`);
}

main();
