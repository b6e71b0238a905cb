// Live behaviour a visitor notices: the home map's ticker shows a satellite as soon as the server
// announces a packet, and the e-mail login link opens the user's console.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { collectAnnouncements, demoLoginLink, logInWithLink } from '../src/support';

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
    // Listening before the page opens: every packet the page can show was announced here too.
    const announced = await collectAnnouncements(baseUrl);
    const page = await browser.newPage({ width: 1366, height: 900 });
    const errors = collectErrors(page);
    try {
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      const ticker = page.getByTestId('packet-ticker');
      // A ticker item lives 3 s; poll until one names a packet the server announced.
      await expect
        .poll(
          async () => {
            const hrefs = await ticker
              .locator('a')
              .evaluateAll((links) =>
                links.map((l) =>
                  (l as unknown as { getAttribute(n: string): string | null }).getAttribute('href'),
                ),
              )
              .catch(() => [] as (string | null)[]);
            return hrefs.some((h) => announced.ids.has(h?.replace(/^\/packet\//, '') ?? ''));
          },
          { timeout: 90_000, interval: 250 },
        )
        .toBe(true);
      expect(errors).toEqual([]);
    } finally {
      announced.close();
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
      await logInWithLink(page, baseUrl, link);
      // The console's buttons appear once the user has loaded with the new session.
      await page.getByRole('button', { name: 'CREDENTIALS' }).waitFor({ timeout: 15_000 });
      expect(await page.title()).toMatch(/TinyGS$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
