// The admin CLI run as an operator runs it: a separate process on the test server's DATA_DIR and
// database (and any further environment, e.g. TLE_SOURCES).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../src/config';
import type { TestServer } from './harness';

const SERVER_DIR = join(REPO_ROOT, 'apps/server');
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(
  server: TestServer,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<CliRun> {
  const { config } = server.ctx;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: config.dataDir,
    SERVER_SECRET: config.serverSecret,
    ...(config.database.kind === 'postgres' ? { DATABASE_URL: config.database.url } : {}),
    ...extraEnv,
  };
  return new Promise((resolve) => {
    execFile(
      TSX,
      ['src/cli/main.ts', ...args],
      { cwd: SERVER_DIR, env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}
