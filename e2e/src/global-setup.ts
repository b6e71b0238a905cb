// Once per browser-test run: Chromium present, front ends built, one server with a few simulated
// stations. Tests read its address with inject('baseUrl').
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// Loads vitest's types so the ProvidedContext augmentation below has a module to merge into.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from './chromium';
import { REPO_ROOT, removeDataDir, startServerProcess, type ServerProcess } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mqttPort: number;
    dataDir: string;
    chromiumPath: string;
  }
}

let server: ServerProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  const chromiumPath = ensureChromium();
  for (const app of ['apps/web', 'apps/viewer']) {
    if (!existsSync(join(REPO_ROOT, app, 'dist/index.html'))) {
      execFileSync('npm', ['run', 'build', '--workspace', app], {
        cwd: REPO_ROOT,
        stdio: 'inherit',
      });
    }
  }
  server = await startServerProcess();
  project.provide('baseUrl', server.url);
  project.provide('mqttPort', server.mqttPort);
  project.provide('dataDir', server.dataDir);
  project.provide('chromiumPath', chromiumPath);
}

export async function teardown(): Promise<void> {
  if (!server) return;
  await server.kill();
  removeDataDir(server.dataDir);
}
