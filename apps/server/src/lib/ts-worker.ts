// Worker threads run TypeScript source like the rest of the server: a two-line script loads tsx's
// API and imports the thread module through it (works under tsx and under the test runner alike).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function tsxEsmApi(): string {
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = (
    JSON.parse(readFileSync(packageJson, 'utf8')) as {
      exports: Record<string, { import: { default: string } }>;
    }
  ).exports;
  const entry = exports['./esm/api']?.import.default;
  if (!entry) throw new Error('tsx has no ESM API entry');
  return pathToFileURL(join(dirname(packageJson), entry)).href;
}
const TSX_API = tsxEsmApi();

/** The script (`new Worker(script, { eval: true })`) of a thread whose module is at `module`. */
export function tsWorkerScript(module: URL): string {
  const entry = JSON.stringify(module.href);
  return `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${entry}, ${entry}));`;
}
