// Every route of SPEC.md section 2 in a real browser: the title ends with the product name, a text
// that belongs to the screen is visible, nothing is logged as an error, and axe-core finds no
// serious or critical accessibility violation. Narrow phones (375 px) for the busiest screens.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import {
  demoLoginLink,
  describeViolations,
  inactiveSatellite,
  logInWithLink,
  maybeScreenshot,
  seriousViolations,
  somePacketId,
  someStationId,
} from '../src/support';

interface RouteCase {
  name: string;
  path: () => string;
  /** a text the screen shows once it has loaded */
  text: RegExp | (() => RegExp);
  /** opened by the signed-in demo user (the user console is an owner's screen) */
  owner?: boolean;
}

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const ids = { packet: '', station: '', user: '', inactive: '', inactiveName: 'Inactive' };

const ROUTES: RouteCase[] = [
  { name: 'home', path: () => '/', text: /Active Stations/i },
  { name: 'stations', path: () => '/stations', text: /Stations/ },
  { name: 'packets', path: () => '/packets', text: /Last packets/ },
  { name: 'satellites', path: () => '/satellites', text: /Norby/ },
  { name: 'satellitesFSK', path: () => '/satellitesFSK', text: /FSK/ },
  // SPEC.md section 2: also written /satelliteFSK in one place; both must work.
  { name: 'satelliteFSK', path: () => '/satelliteFSK', text: /FSK/ },
  { name: 'satellitesSL', path: () => '/satellitesSL', text: /Starlink/ },
  { name: 'satellitesIna', path: () => '/satellitesIna', text: /Inactive/ },
  { name: 'satellitesFut', path: () => '/satellitesFut', text: /Future/ },
  { name: 'satellitesSurv', path: () => '/satellitesSurv', text: /Surveillance/ },
  { name: 'balloons', path: () => '/balloons', text: /Balloon/ },
  { name: 'satellite', path: () => '/satellite/Norbi', text: /Norby/ },
  {
    name: 'satelliteIna',
    path: () => `/satelliteIna/${encodeURIComponent(ids.inactive)}`,
    text: () => new RegExp(escapeRegExp(ids.inactiveName)),
  },
  { name: 'packet', path: () => `/packet/${ids.packet}`, text: /Norbi|Unrecognized packet|RSSI/ },
  // Any stored packet opens on the inactive packet view as well (the same API answer).
  { name: 'packetIna', path: () => `/packetIna/${ids.packet}`, text: /Unrecognized packet|RSSI/ },
  { name: 'station', path: () => `/station/${ids.station}`, text: /\w@\d+/ },
  { name: 'user', path: () => `/user/${ids.user}`, text: /CREDENTIALS/, owner: true },
  { name: 'april', path: () => '/april/1', text: /April/i },
  { name: 'about', path: () => '/about', text: /Meet the team/i },
  { name: 'history', path: () => '/history', text: /History/ },
  { name: 'terms', path: () => '/terms', text: /Spain/ },
];

// The main screens a visitor or owner opens on a phone.
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const MOBILE = new Set([
  'home',
  'stations',
  'packets',
  'satellites',
  'satellite',
  'packet',
  'station',
  'user',
]);

describe('every route renders cleanly', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
    ids.packet = await somePacketId(baseUrl);
    ids.station = await someStationId(baseUrl);
    ids.user = demoLoginLink(dataDir, baseUrl).searchParams.get('userId') ?? '';
    const inactive = await inactiveSatellite(baseUrl);
    ids.inactive = inactive.name;
    ids.inactiveName = inactive.displayName;
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(page: Page, route: RouteCase): Promise<string[]> {
    const errors = collectErrors(page);
    if (route.owner) await logInWithLink(page, baseUrl, demoLoginLink(dataDir, baseUrl));
    await page.goto(`${baseUrl}${route.path()}`, { waitUntil: 'load' });
    await page.waitForFunction('document.title.endsWith("TinyGS")', undefined, { timeout: 15_000 });
    const text = typeof route.text === 'function' ? route.text() : route.text;
    try {
      await page.getByText(text).first().waitFor({ state: 'visible', timeout: 15_000 });
    } catch {
      const shown = String(await page.evaluate('document.body.innerText')).slice(0, 600);
      throw new Error(`${route.path()}: ${String(text)} not visible; page shows: ${shown}`);
    }
    return errors;
  }

  /** The profile is shared by every page: an owner route leaves no session behind for visitors. */
  async function closePage(page: Page, route: RouteCase): Promise<void> {
    if (route.owner) await page.evaluate('localStorage.clear()').catch(() => undefined);
    await page.close();
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
      await closePage(page, route);
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
        await closePage(page, route);
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
          await closePage(page, route);
        }
      }
    },
  );
});
