// Telemetry over time in a real browser against the real server: the operator imports the
// captured live data with `npm run cli -- packets import`, a visitor opens SATLLA-2B's page, picks
// its battery voltage in "Telemetry over time", sees it drawn over the captured days, and
// downloads the series as CSV: the same numbers the live network decoded.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { getJson } from '../src/owner';
import {
  removeDataDir,
  REPO_ROOT,
  startServerProcess,
  type ServerProcess,
} from '../src/server-process';
import { cli, visible } from '../src/support';

const LIVE_DIR = join(REPO_ROOT, 'fixtures/live-packets-2022');
const FILES = readdirSync(LIVE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => join(LIVE_DIR, f));
const FIELD = 'payload.batteryVolts';

interface LiveDoc {
  packets: {
    satellite: string;
    serverTime: number;
    parsed?: { payload?: Record<string, unknown> };
  }[];
}

/** SATLLA-2B's battery voltage as the live network decoded it, oldest first. */
function capturedVolts(): [number, number][] {
  const out: [number, number][] = [];
  for (const file of FILES) {
    for (const p of (JSON.parse(readFileSync(file, 'utf8')) as LiveDoc).packets) {
      const v = p.parsed?.payload?.batteryVolts;
      if (p.satellite === 'SATLLA-2B' && typeof v === 'number') out.push([p.serverTime, v]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** The canvas calls used below (this package compiles without the DOM library). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  } | null;
}

/** How many pixels of a canvas have anything drawn on them. */
async function drawnPixels(page: Page, label: string): Promise<number> {
  return page.getByRole('img', { name: label }).evaluate((canvas) => {
    const c = canvas as unknown as CanvasLike;
    const pixels = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? [];
    let drawn = 0;
    for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) drawn += 1;
    return drawn;
  });
}

describe('telemetry over time in the browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const volts = capturedVolts();

  // A server of its own, without simulated stations: the shared server's stations replay
  // SATLLA-2B's captured frames whenever the satellite passes over one of them, and a sample heard
  // now would make the series' newest sample (and so the charts' window) today's instead of the
  // imported days'.
  let server: ServerProcess | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    server = await startServerProcess({ env: { SIMULATED_STATIONS: '0' } });
    baseUrl = server.url;
    const dataDir = server.dataDir;
    for (const file of FILES) {
      const result = cli<{ imported: number }>(dataDir, baseUrl, ['packets', 'import', file]);
      expect(result.imported).toBeGreaterThan(0);
    }
    browser = await openBrowser(inject('chromiumPath'));
    page = await browser.newPage({ width: 1366, height: 900 });
    errors = collectErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    if (server) {
      await server.kill();
      removeDataDir(server.dataDir);
    }
  });

  it('shows an imported satellite’s battery voltage as a chart over its dates and downloads it as CSV', async () => {
    const fields = await getJson<{ fields: { field: string; firstAt: number; lastAt: number }[] }>(
      baseUrl,
      '/v1/satellite/SATLLA-2B/telemetry/fields',
    );
    expect(fields.fields.find((f) => f.field === FIELD)).toMatchObject({
      firstAt: volts[0]?.[0],
      lastAt: volts.at(-1)?.[0],
    });

    await page.goto(`${baseUrl}/satellite/SATLLA-2B`, { waitUntil: 'load' });
    const section = page.getByRole('region', { name: 'Telemetry over time' });
    // Pick another field first, then the battery voltage, as a visitor browsing the fields would.
    const picker = await visible(
      page,
      section.getByRole('combobox', { name: 'Field' }),
      'the field picker',
      45_000,
    );
    await picker.click();
    await page.getByRole('option', { name: 'payload.snsNtc1', exact: true }).click();
    await visible(
      page,
      section.getByRole('img', { name: 'payload.snsNtc1 over 7 days' }),
      'the temperature chart',
    );
    await picker.click();
    await page.getByRole('option', { name: FIELD, exact: true }).click();
    const week = `${FIELD} over 7 days`;
    await visible(page, section.getByRole('img', { name: week }), 'the battery voltage chart');
    // The captured days (20-24 November 2022) all lie in the 7 days up to the newest sample: per
    // hour, every sample counted once.
    await visible(page, section.getByText(/buckets \(min\/avg\/max per hour\)/), 'the bucket note');
    await expect.poll(() => drawnPixels(page, week), { timeout: 10_000 }).toBeGreaterThan(500);

    await section.getByRole('button', { name: '1 day' }).click();
    const day = `${FIELD} over 1 day`;
    await visible(page, section.getByRole('img', { name: day }), 'the one-day chart');
    await visible(page, section.getByText(/samples \(every sample\)/), 'the raw note');
    await expect.poll(() => drawnPixels(page, day), { timeout: 10_000 }).toBeGreaterThan(500);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`SATLLA-2B-${FIELD}-raw.csv`);
    const path = await download.path();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const last = volts.at(-1)?.[0] ?? 0;
    // Raw samples as stored: timed to the second, the first of each second.
    const inDay = volts
      .map(([t, v]) => [Math.floor(t / 1000) * 1000, v] as const)
      .filter(([t], i, all) => t >= last - 86_400_000 && all[i - 1]?.[0] !== t);
    expect(inDay.length).toBeGreaterThan(10);
    expect(lines[0]).toBe('time,value');
    expect(lines.slice(1)).toEqual(inDay.map(([t, v]) => `${new Date(t).toISOString()},${v}`));
    expect(errors).toEqual([]);
  });
});
