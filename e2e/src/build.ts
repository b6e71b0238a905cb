// The front ends the browser tests load are the built ones the server serves (dist/). They are
// built when missing or older than their sources, so a run always tests the code in the tree.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server-process';

/** What each front end is built from: its own sources and the packages it bundles. */
const FRONT_ENDS: { workspace: string; sources: string[] }[] = [
  {
    workspace: 'apps/web',
    sources: ['apps/web/src', 'apps/web/index.html', 'apps/web/public', 'packages/contracts/src'],
  },
  {
    workspace: 'apps/viewer',
    sources: ['apps/viewer/src', 'apps/viewer/index.html', 'packages/orbit/src'],
  },
];

function newestMtimeMs(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

/** Builds each front end whose dist/index.html is missing or older than a source file. */
export function ensureFrontEnds(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  for (const app of FRONT_ENDS) {
    const built = join(REPO_ROOT, app.workspace, 'dist/index.html');
    const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
    const changedAt = Math.max(...app.sources.map((s) => newestMtimeMs(join(REPO_ROOT, s))));
    if (builtAt > changedAt) continue;
    console.log(`e2e: building ${app.workspace} (${builtAt ? 'sources changed' : 'no build yet'})`);
    try {
      execFileSync('npm', ['run', 'build', '--workspace', app.workspace], {
        cwd: REPO_ROOT,
        stdio: 'pipe',
        encoding: 'utf8',
      });
    } catch (err) {
      const out = err as { stdout?: string; stderr?: string };
      throw new Error(`building ${app.workspace} failed:\n${out.stdout ?? ''}${out.stderr ?? ''}`);
    }
  }
}
