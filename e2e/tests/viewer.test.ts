// The 3D orbit viewer (/viewer?sat=&gs=) in a real browser with no way out to the internet: it loads
// from the local server alone, draws the globe with WebGL (headless Chromium with --disable-gpu
// falls back to SwiftShader, a software WebGL 2) and puts the satellite marker where the API says
// the satellite is at the same instant, within 1 degree of great-circle angle.
import { WorldmapResponseSchema, type WorldmapSatellite } from '@tinygs/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, type Browser } from '../src/browser';

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;

/** What the viewer publishes on window.__viewerState (apps/viewer/src/viewerState.ts). */
interface DrawnSatellite {
  timeMs: number;
  lat: number;
  lng: number;
  altKm: number;
  screenX: number;
  screenY: number;
}
interface ViewerState {
  status: string;
  satellite: string | null;
  frames: number;
  drawn: DrawnSatellite | null;
}

interface ApiPosition {
  lat: number;
  lng: number;
  alt: number;
  /** When the server computed it: somewhere in [fromMs, toMs] (the request's round trip). */
  fromMs: number;
  toMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function worldmap(): Promise<WorldmapSatellite[]> {
  const res = await fetch(`${baseUrl}/v1/satellitesWorldmap`);
  if (!res.ok) throw new Error(`/v1/satellitesWorldmap -> ${res.status}`);
  return WorldmapResponseSchema.parse(await res.json());
}

/** The API's position of `name` now; the server takes Date.now() while handling the request. */
async function apiPosition(name: string): Promise<ApiPosition> {
  const fromMs = Date.now();
  const entry = (await worldmap()).find((s) => s.name === name);
  const toMs = Date.now();
  if (entry?.lat == null || entry.lng == null || entry.alt === undefined) {
    throw new Error(`/v1/satellitesWorldmap has no position for ${name}`);
  }
  return { lat: entry.lat, lng: entry.lng, alt: entry.alt, fromMs, toMs };
}

/**
 * A satellite in low Earth orbit with a TLE. Preferred: one whose element-set title (the first
 * line of its catalogue TLE) differs from its catalogue name (Norbi / NORBY), the case the web
 * app's embedded viewer depends on.
 */
async function pickSatellite(): Promise<WorldmapSatellite & { lat: number; lng: number }> {
  const leo = (await worldmap()).filter(
    (s): s is WorldmapSatellite & { lat: number; lng: number } =>
      !s.tleMissing &&
      s.lat !== null &&
      s.lng !== null &&
      (s.alt ?? 0) > 150 &&
      (s.alt ?? 0) < 2000,
  );
  for (const s of leo) {
    const res = await fetch(`${baseUrl}/v1/satellite/${encodeURIComponent(s.name)}`);
    const { tle } = (await res.json()) as { tle?: string[] | null };
    const title = tle?.[0]?.trim().replace(/^0 /, '').toLowerCase();
    if (title && title !== s.name.toLowerCase()) return s;
  }
  const chosen = leo[0];
  if (!chosen) throw new Error('/v1/satellitesWorldmap lists no satellite in low Earth orbit');
  return chosen;
}

function viewerQuery(sat: { name: string; lat: number; lng: number }): string {
  return `sat=${encodeURIComponent(sat.name)}&gs=${sat.lat.toFixed(2)},${sat.lng.toFixed(2)}`;
}

async function viewerState(page: Page): Promise<ViewerState | null> {
  return (await page.evaluate('window.__viewerState ?? null')) as ViewerState | null;
}

/** Everything that went wrong in the page: errors logged or thrown, local requests that failed. */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) => {
    if (req.url().startsWith(origin)) {
      problems.push(`failed: ${req.url()} ${req.failure()?.errorText ?? ''}`);
    }
  });
  page.on('response', (res) => {
    if (res.url().startsWith(origin) && res.status() >= 400) {
      problems.push(`HTTP ${res.status()}: ${res.url()}`);
    }
  });
  return problems;
}

/** Lets only the local server through; returns the list of everything else the page asked for. */
async function goOffline(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || /^(data|blob):/.test(url)) return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  return outside;
}

type Vec = [number, number, number];
const RAD = Math.PI / 180;
const unit = (lat: number, lng: number): Vec => [
  Math.cos(lat * RAD) * Math.cos(lng * RAD),
  Math.cos(lat * RAD) * Math.sin(lng * RAD),
  Math.sin(lat * RAD),
];
function angleDeg(a: Vec, b: Vec): number {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return Math.acos(Math.min(1, Math.max(-1, dot))) / RAD;
}

/**
 * Where the viewer showed the satellite at `timeMs`: between the two drawn positions around it,
 * interpolated along the great circle (normalised linear blend: exact enough over a few seconds,
 * when the satellite moves well under a degree).
 */
function shownAt(samples: DrawnSatellite[], timeMs: number): { dir: Vec; altKm: number } {
  const before = samples.filter((s) => s.timeMs <= timeMs).at(-1);
  const after = samples.find((s) => s.timeMs >= timeMs);
  if (!before || !after) {
    throw new Error(`no drawn positions around ${timeMs}: ${samples.map((s) => s.timeMs).join()}`);
  }
  // Bracket far wider than the viewer's 1 s update would mean the viewer stopped moving it.
  expect(after.timeMs - before.timeMs).toBeLessThanOrEqual(3_000);
  const f =
    after.timeMs === before.timeMs ? 0 : (timeMs - before.timeMs) / (after.timeMs - before.timeMs);
  const a = unit(before.lat, before.lng);
  const b = unit(after.lat, after.lng);
  const mix = a.map((v, i) => v + f * ((b[i] ?? 0) - v)) as Vec;
  const len = Math.hypot(...mix);
  return {
    dir: mix.map((v) => v / len) as Vec,
    altKm: before.altKm + f * (after.altKm - before.altKm),
  };
}

interface PixelCounts {
  total: number;
  /** pixels near each of the viewer's colours, anywhere */
  ocean: number;
  land: number;
  /** satellite-marker pixels within 14 px of the point the viewer says it drew the marker at */
  markerNearPoint: number;
}

/**
 * Counts colours in a screenshot of the canvas. Decoded by the page itself (an <img> from a data:
 * URL, which the viewer's CSP allows), so the test needs no PNG decoder of its own.
 */
async function countPixels(page: Page, png: Buffer, x: number, y: number): Promise<PixelCounts> {
  const expr = `(async () => {
    const img = new Image();
    img.src = 'data:image/png;base64,${png.toString('base64')}';
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const near = (i, [r, g, b], tol) =>
      Math.abs(d[i] - r) <= tol && Math.abs(d[i + 1] - g) <= tol && Math.abs(d[i + 2] - b) <= tol;
    const out = { total: c.width * c.height, ocean: 0, land: 0, markerNearPoint: 0 };
    for (let p = 0; p < out.total; p += 1) {
      const i = p * 4;
      if (near(i, [0x0d, 0x2a, 0x4a], 12)) out.ocean += 1;
      else if (near(i, [0x3c, 0x6e, 0x47], 12)) out.land += 1;
      else if (near(i, [0xff, 0xd5, 0x4f], 40)) {
        const px = p % c.width, py = Math.floor(p / c.width);
        if (Math.hypot(px - ${x}, py - ${y}) <= 14) out.markerNearPoint += 1;
      }
    }
    return out;
  })()`;
  return (await page.evaluate(expr)) as PixelCounts;
}

describe('orbit viewer', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('loads offline and shows the satellite where the API puts it at the same time', async () => {
    const sat = await pickSatellite();
    const page = await browser.newPage({ width: 1366, height: 900 });
    const problems = collectProblems(page);
    const outside = await goOffline(page);
    try {
      // The station under the satellite: the camera looks down on it, so the marker is in view.
      // The address is the one the satellite and station pages embed.
      await page.goto(`${baseUrl}/viewer?${viewerQuery(sat)}`, { waitUntil: 'load' });
      expect(new URL(page.url()).pathname).toBe('/viewer');
      const webgl = (await page.evaluate(`(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        const ext = gl && gl.getExtension('WEBGL_debug_renderer_info');
        return gl ? (ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : 'WebGL 2') : null;
      })()`)) as string | null;
      expect(webgl, 'headless Chromium offers no WebGL 2').not.toBeNull();

      await page.waitForFunction(
        'window.__viewerState?.status === "showing" && window.__viewerState.drawn !== null',
        undefined,
        { timeout: 30_000 },
      );

      // The API cannot be asked for a given instant: /v1/satellitesWorldmap answers for the
      // server's Date.now() during the request. Browser, server and test share this machine's
      // clock, so that instant lies between the request's start and end; its midpoint is off by at
      // most half the round trip. The viewer moves its marker once a second and reports the
      // instant each drawn position belongs to; the drawn positions just before and after the API's
      // instant are interpolated to it. At ~0.07 deg/s for a LEO satellite, a round trip under 2 s
      // leaves the timing error below 0.07 deg, small against the 1 degree allowed.
      const samples = new Map<number, DrawnSatellite>();
      const sample = async () => {
        const drawn = (await viewerState(page))?.drawn;
        if (drawn) samples.set(drawn.timeMs, drawn);
      };
      await sample();
      const api = await apiPosition(sat.name);
      const deadline = Date.now() + 10_000;
      while (![...samples.keys()].some((t) => t >= api.toMs)) {
        if (Date.now() > deadline) throw new Error('the viewer stopped updating the satellite');
        await sleep(100);
        await sample();
      }
      expect(api.toMs - api.fromMs).toBeLessThan(2_000);
      const apiTimeMs = (api.fromMs + api.toMs) / 2;
      const ordered = [...samples.values()].sort((a, b) => a.timeMs - b.timeMs);
      const shown = shownAt(ordered, apiTimeMs);
      const offDeg = angleDeg(shown.dir, unit(api.lat, api.lng));
      expect(
        offDeg,
        `viewer ${JSON.stringify(ordered)} vs API ${JSON.stringify(api)}`,
      ).toBeLessThan(1);
      expect(Math.abs(shown.altKm - api.alt)).toBeLessThan(10);

      // The canvas shows the globe and the satellite marker at the point the viewer reports.
      const state = await viewerState(page);
      const drawn = state?.drawn;
      if (!drawn) throw new Error('the viewer stopped drawing the satellite');
      expect(state?.satellite).toBeTruthy();
      const png = await page.locator('#globe canvas').screenshot();
      const pixels = await countPixels(page, png, drawn.screenX, drawn.screenY);
      expect(pixels.ocean / pixels.total, `webgl: ${webgl}`).toBeGreaterThan(0.02);
      expect(pixels.land / pixels.total).toBeGreaterThan(0.002);
      expect(pixels.markerNearPoint).toBeGreaterThan(20);

      expect(await page.locator('#info').innerText()).toContain(state?.satellite ?? '');
      expect(outside, 'requests to outside hosts').toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
