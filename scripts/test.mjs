#!/usr/bin/env node
// The whole test suite behind `npm test`: lint, typecheck, unit and integration tests
// (vitest, on SQLite and PostgreSQL), then the browser tests. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = process.argv[2];
const results = [];
let passed = 0;
let failed = 0;

function run(name, cmd, args, env = {}) {
  if (only && only !== name) return true;
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  results.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) });
  return ok;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
}

const out = mkdtempSync(join(tmpdir(), 'tinygs-test-'));
run('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
run('typecheck', 'npm', ['run', 'typecheck', '--silent']);
const unitReport = join(out, 'vitest.json');
run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`]);
countVitest(unitReport);
if (existsSync('e2e/vitest.config.ts')) {
  const e2eReport = join(out, 'e2e.json');
  run('e2e', 'npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${e2eReport}`]);
  countVitest(e2eReport);
}

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
const stepFailures = results.filter((r) => !r.ok).length;
console.log(`tests: ${passed} passed, ${failed + (failed === 0 ? stepFailures : 0)} failed`);
process.exit(stepFailures === 0 ? 0 : 1);
