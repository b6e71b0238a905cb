// `npm run bench`: runs ingest, api, sse, web, map and a short soak one after another, collects
// their results into bench/results/latest.json and rewrites the summary table at the top of
// docs/PERFORMANCE.md. A benchmark left out (--skip) or failing keeps the figures of its last
// results file, so figures of benchmarks run separately stay in the table.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, RESULTS_DIR, round, type Headline } from './machine';

const ROOT = join(RESULTS_DIR, '..', '..');
const DOC = join(ROOT, 'docs', 'PERFORMANCE.md');
const START = '<!-- bench:summary:start (written by `npm run bench`) -->';
const END = '<!-- bench:summary:end -->';

const BENCHES: { name: string; args: string[] }[] = [
  { name: 'ingest', args: [] },
  { name: 'api', args: [] },
  { name: 'sse', args: [] },
  { name: 'web', args: [] },
  { name: 'map', args: [] },
  { name: 'soak', args: ['--minutes', '2'] },
];

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
  if (name === 'api' || name === 'api-postgres') {
    // The api benchmark's fields have changed between versions; both shapes are read.
    const goals = r.goals as { p99Ms: number; ratioToCeiling?: number; ratioToStaticFile?: number };
    const minRatio = goals.ratioToStaticFile ?? goals.ratioToCeiling ?? NaN;
    const rows = r.results as {
      packets: number;
      route: string;
      reqPerSec: number;
      p99Ms: number;
      ceilingReqPerSec?: number;
      staticFileReqPerSec?: number;
      ratio?: number;
      ratioToStaticFile?: number;
      meetsGoals?: boolean;
    }[];
    const ceilingName =
      goals.ratioToStaticFile !== undefined
        ? 'same bytes as a static file (req/s)'
        : 'bare node:http, same bytes (req/s)';
    return rows.map((x) => {
      const ratio = x.ratioToStaticFile ?? x.ratio ?? NaN;
      return {
        benchmark: `API${name === 'api-postgres' ? ' (PostgreSQL)' : ''} ${x.route}, ${x.packets.toLocaleString('en')} packets: req/s (p99 ${x.p99Ms} ms)`,
        figure: 'req/s',
        value: x.reqPerSec,
        goal: `p99 < ${goals.p99Ms} ms, >= ${minRatio} of ceiling`,
        ceiling: ceilingName,
        ceilingValue: x.staticFileReqPerSec ?? x.ceilingReqPerSec ?? NaN,
        ratio: round(ratio, 3),
        pass: x.meetsGoals ?? (x.p99Ms < goals.p99Ms && ratio >= minRatio),
      };
    });
  }
  return [];
}

// NaN is written as null in the results files.
const cell = (v: number | string | null) =>
  typeof v === 'number' ? (Number.isFinite(v) ? v.toLocaleString('en') : '') : (v ?? '');

function table(results: Record<string, Json | null>): string {
  const m = machine();
  const lines = [
    START,
    `## Summary`,
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; machine: ${m.cpus} cores ` +
      `(${m.model}), ${m.ramGb} GiB RAM, Node ${m.node.replace(/^v/, '')}. Each row's date is in its ` +
      `results file (bench/results/<name>.json); medians of repeated runs; ceilings measured in the same run.`,
    '',
    '| benchmark | figure | goal | ceiling (same run) | ratio | pass | date |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [name, r] of Object.entries(results)) {
    if (!r) {
      lines.push(`| ${name} | not run | | | | | |`);
      continue;
    }
    for (const h of headlines(name, r)) {
      const ceiling = h.ceiling ? `${cell(h.ceilingValue)} (${h.ceiling})` : '';
      lines.push(
        `| ${h.benchmark} | ${cell(h.value)} | ${h.goal} | ${ceiling} | ${cell(h.ratio)} | ${h.pass ? 'pass' : 'FAIL'} | ${String(r.date ?? '').slice(0, 10)} |`,
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
      'soak-minutes': { type: 'string', default: '2' },
    },
  });
  const skip = new Set(values.skip.split(',').filter(Boolean));
  const status: Record<string, string> = {};
  for (const b of BENCHES) {
    if (skip.has(b.name)) {
      status[b.name] = 'skipped';
      continue;
    }
    const script = join(RESULTS_DIR, '..', 'src', `${b.name}.ts`);
    if (!existsSync(script)) {
      status[b.name] = 'absent';
      continue;
    }
    const args = b.name === 'soak' ? ['--minutes', values['soak-minutes']] : b.args;
    console.log(`\n=== ${b.name} ===`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: 'inherit',
      cwd: ROOT,
    });
    status[b.name] = r.status === 0 ? 'ran' : `failed (${r.status ?? r.signal})`;
  }
  // `bench:api -- --postgres` is run on its own (it needs the local PostgreSQL); its last results
  // file is listed after the SQLite one.
  const names = BENCHES.map((b) => b.name).flatMap((n) =>
    n === 'api' ? [n, 'api-postgres'] : [n],
  );
  const results = Object.fromEntries(names.map((n) => [n, read(n)]));
  writeFileSync(
    join(RESULTS_DIR, 'latest.json'),
    JSON.stringify(
      { date: new Date().toISOString(), machine: machine(), status, results },
      null,
      2,
    ) + '\n',
  );
  const summary = table(results);
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
  console.table(status);
  console.log(`written: ${join(RESULTS_DIR, 'latest.json')}, ${DOC}`);
}

main();
