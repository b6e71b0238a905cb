// Once per browser-test run: Chromium present, front ends built from the current sources, one
// server with simulated stations. Tests read its address with inject('baseUrl').
// Loads vitest's types so the ProvidedContext augmentation below has a module to merge into.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { ensureFrontEnds } from './build';
import { ensureChromium } from './chromium';
import { removeDataDir, startServerProcess, type ServerProcess } from './server-process';

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
  ensureFrontEnds();
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
