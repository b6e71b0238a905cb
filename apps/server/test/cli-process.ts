// The admin CLI as an operator's script runs it: a process of its own (started through tsx, which
// compiles the CLI on start) against the DATA_DIR and database of a test server.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { Config } from '../src/config';
import { REPO_ROOT } from '../src/config';

/**
 * How long one CLI run and a test made of several may take. A start compiles the CLI; on a
 * machine busy with the rest of the suite that alone can take tens of seconds.
 */
export const CLI_RUN_TIMEOUT_MS = 120_000;
export const CLI_TEST_TIMEOUT_MS = 300_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment an operator would give the CLI beside a running server with this config. */
export function cliEnvironment(config: Config, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: config.dataDir,
    SERVER_SECRET: config.serverSecret,
    PUBLIC_URL: config.publicUrl,
    ...(config.database.kind === 'postgres' ? { DATABASE_URL: config.database.url } : {}),
    ...extra,
  };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      join(REPO_ROOT, 'node_modules/.bin/tsx'),
      ['src/cli/main.ts', ...args],
      {
        cwd: join(REPO_ROOT, 'apps/server'),
        env,
        timeout: CLI_RUN_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err && typeof err.code === 'number' ? err.code : err ? 1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
