// `npm run web --workspace bench`: first visit to / in headless Chromium against the real server
// process. Per run (fresh browser context, cold cache): gzip bytes of the JavaScript requested before
// the statistics cards show numbers, the load event, and the time until the three cards (Members /
// Active Stations / Received Telemetry) show numbers. Ceiling, in the same run: the load event of
// the same index.html + entry chunk from a bare static server. Medians of 5 runs.
// The app measured is apps/web/dist, rebuilt first when it is older than the sources.
// Writes bench/results/web.json.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../e2e/src/chromium';
import { REPO_ROOT, removeDataDir, startServerProcess } from '../../e2e/src/server-process';
import { median, round, writeResult, type Headline } from './machine';

const GOALS = { jsGzipKb: 160, loadMs: 300, statsMs: 1000 };

// Runs in the page before any of its scripts: notes when all three cards first show a number.
// The resource timing buffer is enlarged so that map tiles cannot push script entries out of it.
const STATS_PROBE = `(() => {
  performance.setResourceTimingBufferSize(2000);
  const check = () => {
    const section = document.querySelector('section[aria-label="Network statistics"]');
    if (!section) return false;
    const values = [...section.querySelectorAll('p')].filter((p) => /^[\\d.,\\s]+[kKM]?$/.test(p.textContent.trim()));
    return values.length >= 3;
  };
  const observer = new MutationObserver(() => {
    if (window.__statsAt === undefined && check()) {
      window.__statsAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

interface Run {
  jsGzipBytes: number;
  scripts: number;
  loadMs: number;
  statsMs: number;
}

async function visit(browser: Browser, url: string, waitForStats: boolean): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page: Page = await context.newPage();
  await page.addInitScript(STATS_PROBE);
  // Every script body, by URL; which of them count is decided afterwards from the page's own
  // resource timing (request start), so a chunk asked for after the cards filled never counts
  // however fast it arrives, and one asked for before always does, however late it arrives.
  const isScript = (req: Request) =>
    req.resourceType() === 'script' || /\.m?js(\?|$)/.test(req.url());
  const bodies = new Map<string, Promise<number>>();
  const inFlight = new Set<Request>();
  page.on('request', (req) => {
    if (isScript(req)) inFlight.add(req);
  });
  page.on('requestfinished', (req) => inFlight.delete(req));
  page.on('requestfailed', (req) => inFlight.delete(req));
  page.on('response', (res) => {
    if (!isScript(res.request())) return;
    bodies.set(
      res.url(),
      res.body().then(
        (b) => gzipSync(b).length,
        () => 0,
      ),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  let statsMs = Number.NaN;
  if (waitForStats) {
    await page.waitForFunction(
      // A function, not a string: the app's CSP forbids eval.
      () => (globalThis as { __statsAt?: number }).__statsAt !== undefined,
      null,
      {
        timeout: 30_000,
        polling: 20,
      },
    );
    statsMs = await page.evaluate<number>('window.__statsAt');
  }
  const loadMs = await page.evaluate<number>(
    "performance.getEntriesByType('navigation')[0].loadEventStart",
  );
  // Without stats (the bare static server) everything requested up to the load event counts.
  const cutoff = waitForStats ? statsMs : loadMs;
  // Resource timing lists a request once it has finished: let those already asked for finish.
  const asked = [...inFlight];
  const deadline = Date.now() + 10_000;
  while (asked.some((req) => inFlight.has(req)) && Date.now() < deadline) {
    await page.waitForTimeout(20);
  }
  const requested = await page.evaluate<{ name: string; startTime: number }[]>(
    "performance.getEntriesByType('resource').map((e) => ({ name: e.name, startTime: e.startTime }))",
  );
  const counted = new Set(requested.filter((e) => e.startTime <= cutoff).map((e) => e.name));
  const sizes = await Promise.all(
    [...bodies].filter(([name]) => counted.has(name)).map(([, size]) => size),
  );
  await Promise.all(bodies.values());
  await context.close();
  return {
    jsGzipBytes: sizes.reduce((a, b) => a + b, 0),
    scripts: sizes.length,
    loadMs: round(loadMs),
    statsMs: round(statsMs),
  };
}

/** Rebuilds apps/web when dist/index.html is missing or older than a source it is built from. */
function ensureWebBuild(): void {
  const newest = (path: string): number => {
    if (!existsSync(path)) return 0;
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return readdirSync(path)
      .filter((entry) => entry !== 'node_modules')
      .reduce((m, entry) => Math.max(m, newest(join(path, entry))), stat.mtimeMs);
  };
  const built = join(REPO_ROOT, 'apps/web/dist/index.html');
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    'packages/contracts/src',
  ];
  const changedAt = Math.max(...sources.map((s) => newest(join(REPO_ROOT, s))));
  if (existsSync(built) && statSync(built).mtimeMs > changedAt) return;
  console.log('building apps/web (dist is older than its sources)');
  // Output is shown only on failure (execFileSync throws with it).
  execFileSync('npm', ['run', 'build', '--workspace', 'apps/web'], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Serves only index.html and its entry chunk, as fast as node:http can. */
async function bareStatic(): Promise<{ url: string; close(): Promise<void> }> {
  const dist = join(REPO_ROOT, 'apps/web/dist');
  const html = readFileSync(join(dist, 'index.html'));
  const entry = /src="(\/assets\/[^"]+\.js)"/.exec(html.toString())?.[1];
  if (!entry) throw new Error('no entry chunk in apps/web/dist/index.html');
  const js = readFileSync(join(dist, entry));
  const server = createServer((req, res) => {
    if (req.url === entry) {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    } else if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const RUNS = Number(values.runs);
  ensureWebBuild();
  const server = await startServerProcess({ env: { SIMULATED_STATIONS: '0', LOG_LEVEL: 'warn' } });
  const bare = await bareStatic();
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const runs: Run[] = [];
  const ceilingRuns: number[] = [];
  try {
    // One unmeasured visit warms the server's caches (compression, static file stats), not the browser's.
    await visit(browser, `${server.url}/`, true);
    for (let i = 0; i < RUNS; i += 1) {
      runs.push(await visit(browser, `${server.url}/`, true));
      ceilingRuns.push((await visit(browser, bare.url, false)).loadMs);
      console.log(
        `run ${i + 1}: ${JSON.stringify(runs.at(-1))}, bare load ${ceilingRuns.at(-1)} ms`,
      );
    }
  } finally {
    await browser.close();
    await bare.close();
    await server.kill();
    removeDataDir(server.dataDir);
  }
  const jsKb = round(median(runs.map((r) => r.jsGzipBytes)) / 1024);
  const loadMs = round(median(runs.map((r) => r.loadMs)));
  const statsMs = round(median(runs.map((r) => r.statsMs)));
  const ceilingMs = round(median(ceilingRuns));
  const goals = {
    jsGzipKb: jsKb <= GOALS.jsGzipKb,
    loadMs: loadMs < GOALS.loadMs,
    statsMs: statsMs < GOALS.statsMs,
  };
  const headlines: Headline[] = [
    {
      benchmark: 'Web first visit: JS before stats (gzip KB)',
      figure: 'KB',
      value: jsKb,
      goal: `<= ${GOALS.jsGzipKb}`,
      ceiling: '',
      ceilingValue: Number.NaN,
      ratio: Number.NaN,
      pass: goals.jsGzipKb,
    },
    {
      benchmark: 'Web first visit: load event (ms)',
      figure: 'ms',
      value: loadMs,
      goal: `< ${GOALS.loadMs}`,
      ceiling: 'index.html + entry chunk, bare static server (ms)',
      ceilingValue: ceilingMs,
      ratio: round(ceilingMs / loadMs, 2),
      pass: goals.loadMs,
    },
    {
      benchmark: 'Web first visit: stats cards show numbers (ms)',
      figure: 'ms',
      value: statsMs,
      goal: `< ${GOALS.statsMs}`,
      ceiling: 'bare static load event (ms)',
      ceilingValue: ceilingMs,
      ratio: round(ceilingMs / statsMs, 2),
      pass: goals.statsMs,
    },
  ];
  const file = writeResult('web', {
    runs,
    ceilingLoadMs: ceilingRuns,
    median: { jsGzipKb: jsKb, loadMs, statsMs, ceilingLoadMs: ceilingMs },
    goals,
    headlines,
  });
  console.table({
    'JS before stats, gzip KB': { value: jsKb, goal: `<= ${GOALS.jsGzipKb}`, pass: goals.jsGzipKb },
    'load event ms': { value: loadMs, goal: `< ${GOALS.loadMs}`, pass: goals.loadMs },
    'stats cards ms': { value: statsMs, goal: `< ${GOALS.statsMs}`, pass: goals.statsMs },
    'bare static load ms (ceiling)': { value: ceilingMs, goal: 'ceiling', pass: '' },
  });
  console.log(`written: ${file}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
