// Every route of SPEC.md section 2 in a real browser: the title ends with the product name, a text
// that belongs to the screen is visible, nothing is logged as an error, and axe-core finds no
// serious or critical accessibility violation. Narrow phones (375 px) for the busiest screens.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import {
  demoLoginLink,
  describeViolations,
  maybeScreenshot,
  seriousViolations,
  somePacketId,
  someStationId,
} from '../src/support';

interface RouteCase {
  name: string;
  path: () => string;
  /** a text the screen shows once it has loaded */
  text: RegExp;
}

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const ids = { packet: '', station: '', user: '' };

const ROUTES: RouteCase[] = [
  { name: 'home', path: () => '/', text: /Active Stations/i },
  { name: 'stations', path: () => '/stations', text: /Stations/ },
  { name: 'packets', path: () => '/packets', text: /Last packets/ },
  { name: 'satellites', path: () => '/satellites', text: /Norby/ },
  { name: 'satellitesFSK', path: () => '/satellitesFSK', text: /FSK/ },
  { name: 'satellitesSL', path: () => '/satellitesSL', text: /Starlink/ },
  { name: 'satellitesIna', path: () => '/satellitesIna', text: /Inactive/ },
  { name: 'satellitesFut', path: () => '/satellitesFut', text: /Future/ },
  { name: 'satellitesSurv', path: () => '/satellitesSurv', text: /Surveillance/ },
  { name: 'balloons', path: () => '/balloons', text: /Balloon/ },
  { name: 'satellite', path: () => '/satellite/Norbi', text: /Norby/ },
  { name: 'packet', path: () => `/packet/${ids.packet}`, text: /Norbi|Unrecognized packet|RSSI/ },
  { name: 'station', path: () => `/station/${ids.station}`, text: /\w@\d+/ },
  { name: 'user', path: () => `/user/${ids.user}`, text: /User Console/ },
  { name: 'april', path: () => '/april/1', text: /April/i },
  { name: 'about', path: () => '/about', text: /Meet the team/i },
  { name: 'history', path: () => '/history', text: /History/ },
  { name: 'terms', path: () => '/terms', text: /Spain/ },
];

const MOBILE = new Set(['home', 'packets', 'satellites', 'stations']);

describe('every route renders cleanly', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
    ids.packet = await somePacketId(baseUrl);
    ids.station = await someStationId(baseUrl);
    ids.user = demoLoginLink(dataDir, baseUrl).searchParams.get('userId') ?? '';
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(page: Page, route: RouteCase): Promise<string[]> {
    const errors = collectErrors(page);
    await page.goto(`${baseUrl}${route.path()}`, { waitUntil: 'load' });
    await page.waitForFunction('document.title.endsWith("TinyGS")', undefined, { timeout: 15_000 });
    try {
      await page.getByText(route.text).first().waitFor({ state: 'visible', timeout: 15_000 });
    } catch {
      const shown = String(await page.evaluate('document.body.innerText')).slice(0, 600);
      throw new Error(`${route.path()}: ${String(route.text)} not visible; page shows: ${shown}`);
    }
    return errors;
  }

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s at 1366 px', async (_name, route) => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    try {
      const errors = await open(page, route);
      expect(await page.title()).toMatch(/TinyGS$/);
      expect(describeViolations(await seriousViolations(page))).toEqual([]);
      expect(errors).toEqual([]);
      await maybeScreenshot(page, route.name, 1366);
    } finally {
      await page.close();
    }
  });

  it.each(ROUTES.filter((r) => MOBILE.has(r.name)).map((r) => [r.name, r] as const))(
    '%s at 375 px',
    async (_name, route) => {
      const page = await browser.newPage({ width: 375, height: 812 });
      try {
        const errors = await open(page, route);
        expect(describeViolations(await seriousViolations(page))).toEqual([]);
        expect(errors).toEqual([]);
        // Nothing may force the page wider than the phone.
        const overflow = await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await maybeScreenshot(page, route.name, 375);
      } finally {
        await page.close();
      }
    },
  );

  it.runIf(process.env.UPDATE_SCREENSHOTS === '1')(
    'photographs the other routes at 375 px',
    async () => {
      for (const route of ROUTES.filter((r) => !MOBILE.has(r.name))) {
        const page = await browser.newPage({ width: 375, height: 812 });
        try {
          await open(page, route);
          await maybeScreenshot(page, route.name, 375);
        } finally {
          await page.close();
        }
      }
    },
  );
});
