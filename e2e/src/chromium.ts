// Finds Debian's Chromium, installing the package when it is missing and we are root. Never
// downloads a browser build of its own (the machine reaches only the package registries).
import { execFileSync, spawnSync } from 'node:child_process';

function which(cmd: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function ensureChromium(): string {
  const found = process.env.CHROMIUM_PATH ?? which('chromium');
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'Chromium is missing: install the Debian package `chromium` (as root: apt-get install -y chromium)',
    );
  }
  console.log('Installing Debian package chromium for the browser tests...');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = which('chromium');
  if (!installed) throw new Error('apt-get install chromium did not provide a chromium binary');
  return installed;
}

/** Flags for a headless Chromium on a machine with no outside network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Outside hosts (map tiles) fail at once instead of timing out.
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost',
];
