#!/usr/bin/env node
// The whole test suite behind `npm test`: dependency audit, lint, format check, import rules (no
// cycles, workspace walls), typecheck, unit and integration tests (vitest, on SQLite and
// PostgreSQL), then the browser tests. Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = process.argv[2];
const results = [];
let passed = 0;
let failed = 0;
/** Each failed test's file, name and first line of its error, repeated in the summary. */
const failures = [];

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
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const message = String(test.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      failures.push(`${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${message}`);
    }
  }
}

// npm's messages when the registry's audit service cannot be asked (offline, a mirror without the
// advisories endpoint). Anything else, findings above all, fails the step.
const AUDIT_UNREACHABLE =
  /audit endpoint returned an error|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network request to .* failed/i;

/** Known vulnerabilities of high or critical severity in the production dependencies fail CI. */
function audit() {
  const name = 'audit';
  if (only && only !== name) return;
  const args = ['audit', '--omit=dev', '--audit-level=high'];
  console.log(`\n=== ${name}: npm ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync('npm', args, { encoding: 'utf8' });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  process.stdout.write(output);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (r.status === 0) {
    results.push({ name, ok: true, seconds });
  } else if (
    AUDIT_UNREACHABLE.test(output) &&
    !/# npm audit report|vulnerabilit(y|ies)/i.test(output)
  ) {
    console.log(
      `audit skipped: the registry's audit service could not be reached (${AUDIT_UNREACHABLE.exec(output)?.[0]})`,
    );
    results.push({ name: `${name} (skipped: audit service unreachable)`, ok: true, seconds });
  } else {
    results.push({ name, ok: false, seconds });
  }
}

const out = mkdtempSync(join(tmpdir(), 'tinygs-test-'));
audit();
run('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
run('format', 'npx', ['prettier', '--check', '.']);
run('imports', 'npm', ['run', 'imports:check', '--silent']);
run('typecheck', 'npm', ['run', 'typecheck', '--silent']);
// The two-process cluster test (Mosquitto, Redis, PostgreSQL and the server processes it starts
// and kills) runs in a step of its own, after the rest. Beside a hundred test files running in
// parallel it has failed with the packets of some frames one station short; alone it has passed
// every time. That race is open (docs/TESTING.md, "Cluster"); the test's failure message carries
// the instances' logs to find it.
const CLUSTER_TEST = 'apps/server/test/cluster-instances.test.ts';
const unitReport = join(out, 'vitest.json');
run('vitest', 'npx', [
  'vitest',
  'run',
  '--exclude',
  `**/${CLUSTER_TEST.split('/').pop()}`,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${unitReport}`,
]);
countVitest(unitReport);
const clusterReport = join(out, 'cluster.json');
run('cluster', 'npx', [
  'vitest',
  'run',
  CLUSTER_TEST,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${clusterReport}`,
]);
countVitest(clusterReport);
if (existsSync('e2e/vitest.config.ts')) {
  const e2eReport = join(out, 'e2e.json');
  run('e2e', 'npx', [
    'vitest',
    'run',
    '--config',
    'e2e/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${e2eReport}`,
  ]);
  countVitest(e2eReport);
}

console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
const stepFailures = results.filter((r) => !r.ok).length;
for (const f of failures) console.log(`failed: ${f}`);
console.log(`tests: ${passed} passed, ${failed + (failed === 0 ? stepFailures : 0)} failed`);
process.exit(stepFailures === 0 ? 0 : 1);
