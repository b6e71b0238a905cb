// `npm run web --workspace bench [-- --runs 5 --stations 200 --log]`: first visit to / in headless
// Chromium against the real server process running the demo a fresh install shows (simulated
// stations, their photos). Per run (fresh browser context, cold cache): gzip bytes of the
// JavaScript requested before the statistics cards show numbers, the load event, the time until
// the three cards show numbers; first contentful paint; the time until the live map has drawn its
// stations (`data-stations-drawn`); main-thread script before FCP from a traced visit of its own
// per run (Chromium trace, web-trace.ts: tracing slows the renderer, so no timed visit carries it);
// everything requested by network idle (gzip bytes; the SSE stream as the bytes it had received),
// and which other screens' route chunks were among it. Ceiling, in the same run: the load event and
// FCP of the same index.html + entry chunk from a bare static server. Medians of 5 runs; `--log`
// prints each run's requests by size. The app measured is apps/web/dist, rebuilt first when it is
// older than the sources. Writes bench/results/web.json.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../e2e/src/chromium';
import { REPO_ROOT, removeDataDir, startServerProcess } from '../../e2e/src/server-process';
import { median, round, sleep, writeResult, type Headline } from './machine';
import { endTrace, scriptBeforeFcp, startTrace } from './web-trace';

const GOALS = {
  jsGzipKb: 160,
  loadMs: 300,
  statsMs: 1000,
  totalGzipKb: 200,
  scriptBeforeFcpMs: 150,
  fcpMs: 300,
  mapMs: 1000,
};

// Runs in the page before any of its scripts: notes when all three cards first show a number, and
// when the world map says it has drawn its station markers (`data-stations-drawn` on the map's
// container, set by WorldLayers once the canvas has painted them).
const PROBE = `(() => {
  const check = () => {
    const section = document.querySelector('section[aria-label="Network statistics"]');
    if (!section) return false;
    const values = [...section.querySelectorAll('p')].filter((p) => /^[\\d.,\\s]+[kKM]?$/.test(p.textContent.trim()));
    return values.length >= 3;
  };
  const observer = new MutationObserver(() => {
    if (window.__statsAt === undefined && check()) window.__statsAt = performance.now();
    if (window.__mapAt === undefined) {
      const map = document.querySelector('[data-stations-drawn]');
      if (map && Number(map.getAttribute('data-stations-drawn')) > 0) {
        window.__mapAt = performance.now();
        window.__mapStations = Number(map.getAttribute('data-stations-drawn'));
      }
    }
    if (window.__statsAt !== undefined && window.__mapAt !== undefined) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-stations-drawn'] });
})();`;

/** Quiet time that ends the first visit: no request in flight (event streams aside) for this long. */
const IDLE_QUIET_MS = 500;

export interface RequestRecord {
  url: string;
  type: string;
  status: number;
  /** ms after the document request */
  startMs: number;
  endMs: number;
  /** bytes on the wire as sent (headers included; br or gzip where the server chose it) */
  transferBytes: number;
  /** decoded body */
  bodyBytes: number;
  /** the body gzip-compressed at level 9 (or as is, when that is smaller: images, fonts) */
  gzipBytes: number;
}

interface Run {
  /** JavaScript requested before the statistics cards showed numbers (the first row, kept) */
  jsGzipBytes: number;
  scripts: number;
  loadMs: number;
  statsMs: number;
  fcpMs: number;
  scriptBeforeFcpMs: number;
  scriptByName: Record<string, number>;
  mapMs: number;
  mapStations: number;
  idleMs: number;
  /** every request started before network idle, SSE as the bytes it had received by then */
  totalGzipBytes: number;
  totalTransferBytes: number;
  sseBytesByIdle: number;
  requests: RequestRecord[];
  /** other screens' route chunks requested by network idle */
  otherScreenChunks: string[];
}

interface Tracked {
  url: string;
  type: string;
  start: number;
  end: number;
  status: number;
  transfer: number;
  done: boolean;
  failed: boolean;
  stream: boolean;
  received: { at: number; bytes: number }[];
}

async function visit(
  browser: Browser,
  url: string,
  options: { full: boolean; trace: boolean; otherScreens: Set<string> },
): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page: Page = await context.newPage();
  await page.addInitScript(PROBE);
  const cdp = await context.newCDPSession(page);
  const tracing = options.trace ? await browser.newBrowserCDPSession() : null;
  // Every request of the page and its worker, as Playwright sees them (a dedicated worker's script
  // is fetched by the worker's own target, which the page's CDP session never sees finish).
  const tracked = new Map<Request, Tracked>();
  let lastActivity = 0;
  const now = () => performance.now();
  const isStream = (req: Request) =>
    req.resourceType() === 'eventsource' || /\/sse\//.test(req.url());
  page.on('request', (req) => {
    // One reading for both: a request that is the last activity before idle counts as before it.
    lastActivity = now();
    tracked.set(req, {
      url: req.url(),
      type: isStream(req) ? 'EventSource' : req.resourceType(),
      start: lastActivity,
      end: Number.NaN,
      status: 0,
      transfer: 0,
      done: false,
      failed: false,
      stream: isStream(req),
      received: [],
    });
  });
  const finish = (req: Request, failed: boolean) => {
    const t = tracked.get(req);
    if (!t || t.stream) return;
    lastActivity = now();
    t.done = true;
    t.failed = failed;
    t.end = lastActivity;
  };
  page.on('requestfinished', (req) => finish(req, false));
  page.on('requestfailed', (req) => finish(req, true));
  page.on('response', (res) => {
    const t = tracked.get(res.request());
    if (t) t.status = res.status();
  });
  // The live stream's bytes as they arrive, from the page's CDP session (Playwright reports a
  // stream only when it ends). A stream's events never hold network idle back.
  const streamIds = new Set<string>();
  const streams = () => [...tracked.values()].filter((t) => t.stream);
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.type === 'EventSource' || /\/sse\//.test(e.request.url)) streamIds.add(e.requestId);
  });
  cdp.on('Network.dataReceived', (e) => {
    if (!streamIds.has(e.requestId)) return;
    streams().at(-1)?.received.push({ at: now(), bytes: e.dataLength });
  });
  await cdp.send('Network.enable');
  if (tracing) await startTrace(tracing);

  await page.goto(url, { waitUntil: 'load' });
  const waitFor = async (name: '__statsAt' | '__mapAt') => {
    await page.waitForFunction(
      // A function, not a string: the app's CSP forbids eval.
      (key) => (globalThis as Record<string, unknown>)[key] !== undefined,
      name,
      { timeout: 30_000, polling: 20 },
    );
    return page.evaluate<number, string>(
      (key) => (globalThis as unknown as Record<string, number>)[key] ?? NaN,
      name,
    );
  };
  const statsMs = options.full ? await waitFor('__statsAt') : Number.NaN;
  const mapMs = options.full ? await waitFor('__mapAt') : Number.NaN;
  const mapStations = options.full ? await page.evaluate<number>('window.__mapStations') : 0;
  // Network idle: the first IDLE_QUIET_MS with nothing in flight but event streams, from now on.
  const busy = () => [...tracked.values()].some((t) => !t.done && !t.stream);
  const deadline = now() + 20_000;
  while (now() < deadline && (busy() || now() - lastActivity < IDLE_QUIET_MS)) {
    await page.waitForTimeout(25);
  }
  // The last request activity before the quiet time: what starts later is not the first visit's.
  const idleAt = lastActivity;
  const [loadMs, fcpMs] = await page.evaluate<[number, number]>(
    "[performance.getEntriesByType('navigation')[0].loadEventStart, performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN]",
  );
  const trace = tracing ? scriptBeforeFcp(await endTrace(tracing)) : { scriptMs: NaN, byName: {} };

  const all = [...tracked.entries()];
  // The document request opens the visit.
  const t0 = Math.min(...all.map(([, t]) => t.start));
  const requests: RequestRecord[] = [];
  for (const [req, t] of all) {
    if (t.start > idleAt) continue;
    let bodyBytes = 0;
    let gzipBytes = 0;
    if (t.stream) {
      bodyBytes = t.received.filter((r) => r.at <= idleAt).reduce((a, r) => a + r.bytes, 0);
      gzipBytes = bodyBytes;
    } else if (t.done && !t.failed) {
      const response = await req.response();
      let body = response ? await response.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
      // A body the browser no longer holds: the same URL asked for again.
      if (body.length === 0 && t.url.startsWith(url)) {
        const res = await fetch(t.url);
        if (res.ok) body = Buffer.from(await res.arrayBuffer());
      }
      const sizes = await req.sizes().catch(() => null);
      // A worker's script reports its headers only: its body is counted as received.
      t.transfer = (sizes?.responseHeadersSize ?? 0) + (sizes?.responseBodySize || body.length);
      bodyBytes = body.length;
      gzipBytes = Math.min(body.length, gzipSync(body, { level: 9 }).length);
    }
    requests.push({
      url: t.url.replace(url.replace(/\/$/, ''), ''),
      type: t.stream ? 'EventSource' : t.type,
      status: t.status,
      startMs: round(t.start - t0),
      endMs: round((t.stream ? idleAt : t.end) - t0),
      transferBytes: t.stream ? bodyBytes : t.transfer,
      bodyBytes,
      gzipBytes,
    });
  }
  await context.close();
  requests.sort((a, b) => b.gzipBytes - a.gzipBytes);
  // Without stats (the bare static server) every script up to the load event counts.
  const cutoff = options.full ? statsMs : loadMs;
  const scripts = requests.filter((r) => r.type === 'script' && r.startMs <= cutoff);
  const chunkName = (u: string) => /\/assets\/([^/?]+)$/.exec(u)?.[1] ?? '';
  return {
    jsGzipBytes: scripts.reduce((a, r) => a + r.gzipBytes, 0),
    scripts: scripts.length,
    loadMs: round(loadMs),
    statsMs: round(statsMs),
    fcpMs: round(fcpMs),
    scriptBeforeFcpMs: round(trace.scriptMs),
    scriptByName: trace.byName,
    mapMs: round(mapMs),
    mapStations,
    idleMs: round(idleAt - t0),
    totalGzipBytes: requests.reduce((a, r) => a + r.gzipBytes, 0),
    totalTransferBytes: requests.reduce((a, r) => a + r.transferBytes, 0),
    sseBytesByIdle: requests
      .filter((r) => r.type === 'EventSource')
      .reduce((a, r) => a + r.bodyBytes, 0),
    requests,
    otherScreenChunks: requests
      .map((r) => chunkName(r.url))
      .filter((n) => options.otherScreens.has(n)),
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

/**
 * The chunk files of every screen but Home: the route table's lazy imports (apps/web/src/app/
 * routes.tsx), matched to the built chunks through their source maps.
 */
function otherScreenChunks(): Set<string> {
  const routes = readFileSync(join(REPO_ROOT, 'apps/web/src/app/routes.tsx'), 'utf8');
  const modules = [...routes.matchAll(/import\('\.\.\/([^']+)'\)|import\('\.\/([^']+)'\)/g)].map(
    (m) => (m[1] ? m[1] : `app/${m[2] ?? ''}`),
  );
  const assets = join(REPO_ROOT, 'apps/web/dist/assets');
  const chunks = new Set<string>();
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.js.map'))) {
    const sources = (JSON.parse(readFileSync(join(assets, file), 'utf8')) as { sources: string[] })
      .sources;
    if (
      modules.some((m) => sources.some((src) => /\.tsx?$/.test(src) && src.includes(`src/${m}.`)))
    )
      chunks.add(file.replace(/\.map$/, ''));
  }
  if (chunks.size < modules.length / 2) throw new Error('route chunks not found in the build');
  return chunks;
}

/** Waits until the server lists at least `count` stations (simulated stations connect over seconds). */
async function waitForStations(base: string, count: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const listed = (await (await fetch(`${base}/v1/stations`)).json()) as unknown[];
    if (listed.length >= count) return;
    if (Date.now() > deadline)
      throw new Error(`only ${listed.length} of ${count} stations after 120 s`);
    await sleep(1000);
  }
}

/**
 * The demo's photos are added and approved some seconds after start-up; until then Home's carousel
 * shows the satellites' images (another request, the catalogue and its schema chunk). Every run
 * measures the page a visitor sees once the demo is set up: the photos are listed and their count
 * held still for a second.
 */
async function waitForPhotos(base: string): Promise<number> {
  const deadline = Date.now() + 120_000;
  let last = -1;
  for (;;) {
    const listed = (await (await fetch(`${base}/v1/pictures?limit=12`)).json()) as unknown[];
    if (listed.length > 0 && listed.length === last) return listed.length;
    if (Date.now() > deadline) throw new Error(`the demo's photos not listed after 120 s`);
    last = listed.length;
    await sleep(1000);
  }
}

const kb = (bytes: number) => round(bytes / 1024);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      stations: { type: 'string', default: '200' },
      log: { type: 'boolean', default: false },
    },
  });
  const RUNS = Number(values.runs);
  const STATIONS = Number(values.stations);
  const loadBefore = round(loadavg()[0] ?? 0, 2);
  ensureWebBuild();
  const otherScreens = otherScreenChunks();
  // The demo a fresh install shows (`npm start`): its satellites, simulated stations and photos.
  const server = await startServerProcess({
    env: { SIMULATED_STATIONS: String(STATIONS), LOG_LEVEL: 'warn' },
  });
  const bare = await bareStatic();
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const runs: Run[] = [];
  const ceiling: Run[] = [];
  // Tracing slows the renderer, so the timed visits run without it (the app's and the ceiling's
  // alike); script before FCP comes from as many traced visits of the app, taken in between.
  const traced: Run[] = [];
  const app = (trace: boolean) =>
    visit(browser, `${server.url}/`, { full: true, trace, otherScreens });
  try {
    await waitForStations(server.url, STATIONS);
    await waitForPhotos(server.url);
    // One unmeasured visit warms the server's caches (compression, static file stats), not the browser's.
    await app(false);
    for (let i = 0; i < RUNS; i += 1) {
      runs.push(await app(false));
      ceiling.push(await visit(browser, bare.url, { full: false, trace: false, otherScreens }));
      traced.push(await app(true));
      const r = runs.at(-1) as Run;
      const t = traced.at(-1) as Run;
      console.log(
        `run ${i + 1}: FCP ${r.fcpMs} ms, stats ${r.statsMs} ms, ` +
          `map ${r.mapStations} stations ${r.mapMs} ms, idle ${r.idleMs} ms: ${kb(r.totalGzipBytes)} KB gzip in ` +
          `${r.requests.length} requests; bare FCP ${ceiling.at(-1)?.fcpMs} ms, load ${ceiling.at(-1)?.loadMs} ms; ` +
          `traced: script before FCP ${t.scriptBeforeFcpMs} ms, FCP ${t.fcpMs} ms, map ${t.mapMs} ms`,
      );
      if (values.log) {
        for (const q of r.requests)
          console.log(
            `  ${String(q.gzipBytes).padStart(8)} ${String(q.transferBytes).padStart(8)} ${String(q.startMs).padStart(7)} ${q.type.padEnd(11)} ${q.status} ${q.url}`,
          );
      }
    }
  } finally {
    await browser.close();
    await bare.close();
    await server.kill();
    removeDataDir(server.dataDir);
  }
  const med = (f: (r: Run) => number, of: Run[] = runs) => round(median(of.map(f)));
  const m = {
    jsGzipKb: round(med((r) => r.jsGzipBytes) / 1024),
    loadMs: med((r) => r.loadMs),
    statsMs: med((r) => r.statsMs),
    fcpMs: med((r) => r.fcpMs),
    scriptBeforeFcpMs: med((r) => r.scriptBeforeFcpMs, traced),
    mapMs: med((r) => r.mapMs),
    idleMs: med((r) => r.idleMs),
    totalGzipKb: round(med((r) => r.totalGzipBytes) / 1024),
    totalTransferKb: round(med((r) => r.totalTransferBytes) / 1024),
    otherScreenChunks: Math.max(...runs.map((r) => r.otherScreenChunks.length)),
    ceilingLoadMs: med((r) => r.loadMs, ceiling),
    ceilingFcpMs: med((r) => r.fcpMs, ceiling),
    // the traced visits' own times, for the record: what the trace costs the renderer
    tracedFcpMs: med((r) => r.fcpMs, traced),
    tracedMapMs: med((r) => r.mapMs, traced),
  };
  const goals = {
    jsGzipKb: m.jsGzipKb <= GOALS.jsGzipKb,
    loadMs: m.loadMs < GOALS.loadMs,
    statsMs: m.statsMs < GOALS.statsMs,
    totalGzipKb: m.totalGzipKb <= GOALS.totalGzipKb,
    scriptBeforeFcpMs: m.scriptBeforeFcpMs < GOALS.scriptBeforeFcpMs,
    fcpMs: m.fcpMs < GOALS.fcpMs,
    mapMs: m.mapMs < GOALS.mapMs,
    otherScreenChunks: m.otherScreenChunks === 0,
  };
  const BARE = 'index.html + entry chunk, bare static server';
  const row = (
    benchmark: string,
    figure: string,
    value: number,
    goal: string,
    pass: boolean,
    ceilingName = '',
    ceilingValue = Number.NaN,
  ): Headline => ({
    benchmark,
    figure,
    value,
    goal,
    ceiling: ceilingName,
    ceilingValue,
    ratio: Number.isFinite(ceilingValue) ? round(ceilingValue / value, 2) : Number.NaN,
    pass,
  });
  const headlines: Headline[] = [
    row(
      'Web first visit: JS before stats (gzip KB)',
      'KB',
      m.jsGzipKb,
      `<= ${GOALS.jsGzipKb}`,
      goals.jsGzipKb,
    ),
    row(
      'Web first visit: load event (ms)',
      'ms',
      m.loadMs,
      `< ${GOALS.loadMs}`,
      goals.loadMs,
      `${BARE} (ms)`,
      m.ceilingLoadMs,
    ),
    row(
      'Web first visit: stats cards show numbers (ms)',
      'ms',
      m.statsMs,
      `< ${GOALS.statsMs}`,
      goals.statsMs,
      'bare static load event (ms)',
      m.ceilingLoadMs,
    ),
    row(
      `Web first visit: everything by network idle, ${STATIONS} stations (gzip KB, SSE as received)`,
      'KB',
      m.totalGzipKb,
      `<= ${GOALS.totalGzipKb}`,
      goals.totalGzipKb,
    ),
    row(
      'Web first visit: main-thread script before FCP (ms)',
      'ms',
      m.scriptBeforeFcpMs,
      `< ${GOALS.scriptBeforeFcpMs}`,
      goals.scriptBeforeFcpMs,
    ),
    row(
      'Web first visit: first contentful paint (ms)',
      'ms',
      m.fcpMs,
      `< ${GOALS.fcpMs}`,
      goals.fcpMs,
      `${BARE}: FCP (ms)`,
      m.ceilingFcpMs,
    ),
    row(
      `Web first visit: live map with ${STATIONS} stations drawn (ms)`,
      'ms',
      m.mapMs,
      `< ${GOALS.mapMs}`,
      goals.mapMs,
      'bare static load event (ms)',
      m.ceilingLoadMs,
    ),
    row(
      "Web first visit: other screens' chunks loaded by network idle",
      'chunks',
      m.otherScreenChunks,
      '0',
      goals.otherScreenChunks,
    ),
  ];
  const file = writeResult('web', {
    stations: STATIONS,
    loadAverage1m: { before: loadBefore, after: round(loadavg()[0] ?? 0, 2) },
    method: {
      bytes:
        'every request started before network idle (the first 500 ms with nothing in flight but the SSE stream, after the cards and the map showed); gzipBytes = the body gzip -9 or as is when smaller; the SSE stream counts the bytes it had received by idle',
      timing:
        "load, FCP, stats and map from untraced visits (app and ceiling alike); tracedFcpMs and tracedMapMs are the traced visits' own, for the record",
      scriptBeforeFcp:
        'separate traced visits of the app, one per run: Chromium trace of the renderer main thread, union of EvaluateScript, v8.compile, FunctionCall, v8.compileModule, v8.evaluateModule before the firstContentfulPaint mark',
      map: 'data-stations-drawn on the map container (set by WorldLayers in the animation frame after the station markers were added), performance.now()',
      otherScreens:
        'chunks holding a lazy route module of apps/web/src/app/routes.tsx (by source map)',
    },
    median: m,
    goals,
    headlines,
    runs: runs.map(({ requests, scriptBeforeFcpMs: _, scriptByName: __, ...rest }) => ({
      ...rest,
      requests: requests.length,
    })),
    traced: traced.map((r) => ({
      scriptBeforeFcpMs: r.scriptBeforeFcpMs,
      scriptByName: r.scriptByName,
      fcpMs: r.fcpMs,
      mapMs: r.mapMs,
    })),
    // The network log of the median run by total bytes, largest first.
    requests: [...runs].sort((a, b) => a.totalGzipBytes - b.totalGzipBytes)[
      Math.floor(runs.length / 2)
    ]?.requests,
    ceiling: ceiling.map((r) => ({ loadMs: r.loadMs, fcpMs: r.fcpMs })),
  });
  console.table(
    Object.fromEntries(
      headlines.map((h) => [
        h.benchmark.replace('Web first visit: ', ''),
        { value: h.value, goal: h.goal, ceiling: h.ceilingValue, pass: h.pass },
      ]),
    ),
  );
  console.log(`written: ${file}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
