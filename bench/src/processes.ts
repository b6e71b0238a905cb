// Shared by the benchmarks that run the server (or a ceiling, or the station load) as its own
// process: starting and stopping it, a free port to give it, waiting until it answers, and its CPU
// time.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { BENCH_LOAD_ENV, type LoadConfig } from './ingest-protocol';

const REPO = join(import.meta.dirname, '..', '..');

/**
 * Node's arguments that write a process's V8 CPU profile (node --cpu-prof) into `dir` as it stops
 * (a benchmark's --profile-server); none without a directory.
 */
export function cpuProfileArgs(dir: string | null | undefined): string[] {
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** A TypeScript entry of this repository (path from its root) as a process of its own. */
export function startTsProcess(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** SIGTERM, and the process's exit. */
export async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

/** The station load process (ingest-load.ts) with its configuration written to `file`. */
export function spawnLoadProcess(config: LoadConfig, file: string): ChildProcess {
  writeFileSync(file, JSON.stringify(config));
  return spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'ingest-load.ts')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [BENCH_LOAD_ENV]: file },
  });
}

export const CLOCK_TICK_MS = 1000 / 100; // USER_HZ on Linux

/** user + system CPU time of a process, in ms (10-ms ticks) */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

export async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} never answered`);
}
