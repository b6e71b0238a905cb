// Shared by the benchmarks of sse/web/map/soak/run-all: the machine a figure was taken on, medians,
// and writing bench/results/<name>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

export interface Machine {
  cpus: number;
  model: string;
  ramGb: number;
  node: string;
  loadAverage1m: number;
  /** when the benchmark's process started (this module is loaded first thing) */
  loadAverage1mAtStart: number;
}

const LOAD_AT_START = Math.round((loadavg()[0] ?? 0) * 100) / 100;

export function machine(): Machine {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    ramGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    // Other work on the machine shows in the figures; the load average says how much there was.
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    loadAverage1mAtStart: LOAD_AT_START,
  };
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The value below which `p` percent of the values lie (nearest rank). */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

export function round(v: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** One line of docs/PERFORMANCE.md: what run-all reads back from every results file. */
export interface Headline {
  benchmark: string;
  figure: string;
  value: number;
  goal: string;
  ceiling: string;
  ceilingValue: number;
  /** figure / ceiling, or ceiling / figure when less is better */
  ratio: number;
  pass: boolean;
}

export function writeResult(name: string, report: object): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: machine(),
        // the time this process has run: the benchmark's duration
        durationS: Math.round(process.uptime()),
        ...report,
      },
      null,
      2,
    ) + '\n',
  );
  return file;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
