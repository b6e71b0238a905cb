// Live behaviour a visitor notices: the home map's ticker shows a satellite as soon as the server
// announces a packet, and the e-mail login link opens the user's console.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { demoLoginLink, nextAnnouncedPacket } from '../src/support';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

describe('live map and login', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a packet in the ticker when the server announces one', async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    try {
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      // The page's own event stream is open once the map is up; then wait for an announcement.
      await page
        .getByText(/Active Stations/i)
        .first()
        .waitFor({ timeout: 15_000 });
      const announced = await nextAnnouncedPacket(baseUrl);
      const ticker = page.getByTestId('packet-ticker');
      await ticker.waitFor({ state: 'visible', timeout: 30_000 });
      // Each ticker item links to its packet page; the announced one (or a later one) is there.
      const hrefs = await ticker
        .locator('a')
        .evaluateAll((links) =>
          links.map((l) =>
            (l as unknown as { getAttribute(n: string): string | null }).getAttribute('href'),
          ),
        );
      expect(hrefs.length).toBeGreaterThan(0);
      expect(hrefs.every((h) => /^\/packet\/[0-9a-f]{24}$/.test(h ?? ''))).toBe(true);
      expect(announced.packetId).toMatch(/^[0-9a-f]{24}$/);
    } finally {
      await page.close();
    }
  });

  it('logs in with the link from the CLI and lands on the user console', async () => {
    const link = demoLoginLink(dataDir, baseUrl);
    const userId = link.searchParams.get('userId');
    expect(userId).toMatch(/^\d+$/);
    const page = await browser.newPage({ width: 1366, height: 900 });
    const errors = collectErrors(page);
    try {
      // The link points at PUBLIC_URL, which is this server.
      await page.goto(`${baseUrl}/${link.search}`, { waitUntil: 'load' });
      await page.waitForURL(new RegExp(`/user/${userId}$`), { timeout: 20_000 });
      await page
        .getByText(/User Console/)
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      expect(await page.title()).toMatch(/TinyGS$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
