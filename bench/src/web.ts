// `npm run web --workspace bench`: first visit to / in headless Chromium against the real server
// process. Per run (fresh browser context, cold cache): gzip bytes of the JavaScript requested before
// the statistics cards show numbers, the load event, and the time until the three cards (Members /
// Active Stations / Received Telemetry) show numbers. Ceiling, in the same run: the load event of
// the same index.html + entry chunk from a bare static server. Medians of 5 runs.
// Writes bench/results/web.json.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../e2e/src/chromium';
import { REPO_ROOT, removeDataDir, startServerProcess } from '../../e2e/src/server-process';
import { median, round, writeResult, type Headline } from './machine';

const GOALS = { jsGzipKb: 160, loadMs: 300, statsMs: 1000 };

// Runs in the page before any of its scripts: notes when all three cards first show a number.
const STATS_PROBE = `(() => {
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
  const bodies: Promise<number>[] = [];
  let statsSeen = false;
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (statsSeen || (type !== 'script' && !/\.m?js(\?|$)/.test(res.url()))) return;
    bodies.push(
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
    statsSeen = true;
    statsMs = await page.evaluate<number>('window.__statsAt');
  }
  const loadMs = await page.evaluate<number>(
    "performance.getEntriesByType('navigation')[0].loadEventStart",
  );
  const sizes = await Promise.all(bodies);
  await context.close();
  return {
    jsGzipBytes: sizes.reduce((a, b) => a + b, 0),
    scripts: sizes.length,
    loadMs: round(loadMs),
    statsMs: round(statsMs),
  };
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
