// Live behaviour a visitor notices: the home map's ticker shows a satellite as soon as the server
// announces a packet, a station that comes online appears on the open map, and the e-mail login
// link opens the user's console.
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { connectFirmware } from '../src/firmware';
import { cli, collectAnnouncements, demoLoginLink, logInWithLink } from '../src/support';

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const mqttPort = inject('mqttPort');

/** Web Mercator pixel of a point at `zoom` (Leaflet's EPSG:3857 with 256-px tiles). */
function mercator(lat: number, lng: number, zoom: number): [number, number] {
  const scale = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  const y = (1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2;
  return [((lng + 180) / 360) * scale, y * scale];
}

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
    // A ticker item lives 3 s: the page itself records every link the ticker ever shows, so a
    // slow poll on a busy machine cannot miss one.
    await page.addInitScript({
      content: `
        window.__tickerLinks = new Set();
        new MutationObserver(() => {
          for (const a of document.querySelectorAll('[data-testid="packet-ticker"] a'))
            window.__tickerLinks.add(a.getAttribute('href') || '');
        }).observe(document, { childList: true, subtree: true });`,
    });
    try {
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      await expect
        .poll(
          async () => {
            const hrefs = (await page.evaluate('[...(window.__tickerLinks || [])]')) as string[];
            return hrefs.some((h) => announced.ids.has(h.replace(/^\/packet\//, '')));
          },
          { timeout: 90_000, interval: 500 },
        )
        .toBe(true);
      expect(errors).toEqual([]);
    } finally {
      announced.close();
      await page.close();
    }
  });

  it('draws the satellites as the satellite icon, not as dots', async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    try {
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      const canvas = page.locator('.leaflet-satellites-pane canvas');
      await canvas.waitFor({ state: 'attached', timeout: 30_000 });
      // The icon is white-filled with a dark outline (light variant); the old dots were amber.
      const colours = async () =>
        (await canvas.evaluate((node) => {
          const c = node as unknown as {
            width: number;
            height: number;
            getContext(kind: '2d'): {
              getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
            } | null;
          };
          const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
          let white = 0;
          let amber = 0;
          for (let i = 0; data && i < data.length; i += 4) {
            const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
            if (a === 255 && r === 255 && g === 255 && b === 255) white += 1;
            if (a === 255 && r === 0xff && g === 0xd5 && b === 0x4f) amber += 1;
          }
          return { white, amber };
        })) as { white: number; amber: number };
      await expect
        .poll(async () => (await colours()).white, { timeout: 30_000 })
        .toBeGreaterThan(100);
      expect((await colours()).amber).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('marks the stations it drew, and loads the sound select when a visitor points at it', async () => {
    const page = await browser.newPage({ width: 1366, height: 900 });
    try {
      const scripts: string[] = [];
      page.on('request', (req) => {
        if (req.resourceType() === 'script') scripts.push(req.url());
      });
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      const listed = await (await fetch(`${baseUrl}/v1/stations`)).json();
      const drawn = page.locator('[data-stations-drawn]');
      await drawn.waitFor({ state: 'attached', timeout: 30_000 });
      // The simulated stations are listed, and the map says it drew them.
      expect((listed as unknown[]).length).toBeGreaterThan(0);
      expect(Number(await drawn.getAttribute('data-stations-drawn'))).toBeGreaterThan(0);
      const sound = page.getByRole('combobox', { name: 'Sound' });
      await expect.poll(() => sound.textContent()).toContain('Radar');
      expect(scripts.some((url) => /SoundModeMenu/.test(url))).toBe(false);
      await sound.hover();
      await expect.poll(() => scripts.some((url) => /SoundModeMenu/.test(url))).toBe(true);
      await page.getByRole('combobox', { name: 'Sound' }).click();
      await page.getByRole('option', { name: 'Beep' }).click();
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Sound' }).textContent())
        .toContain('Beep');
    } finally {
      await page.close();
    }
  });

  it('draws a station that comes online while the map is open', { timeout: 150_000 }, async () => {
    const suffix = Math.random().toString(36).slice(2, 6);
    const email = `live-${suffix}@tinygs.localhost`;
    cli(dataDir, baseUrl, ['user', 'add', '--email', email]);
    const creds = cli<{ user: string; pass: string }>(dataDir, baseUrl, [
      'user',
      'mqtt',
      '--email',
      email,
    ]);
    const name = `E2E_Live_${suffix}`;
    // Open sea far from every simulated station (they sit in cities).
    const location: [number, number] = [-40, -130];
    const page = await browser.newPage({ width: 1366, height: 900 });
    const errors = collectErrors(page);
    // The page's own event streams, to know when its stream is open, and their station events.
    await page.addInitScript({
      content: `
        window.__liveStreams = [];
        window.__stationEvents = [];
        const Native = window.EventSource;
        window.EventSource = class extends Native {
          constructor(url, init) {
            super(url, init);
            window.__liveStreams.push(this);
            this.addEventListener('stations-delta', (e) => window.__stationEvents.push(e.data));
          }
        };`,
    });
    let station: Awaited<ReturnType<typeof connectFirmware>> | undefined;
    try {
      await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
      const map = page.locator('.leaflet-container').first();
      await page
        .locator('.leaflet-stations-pane canvas')
        .waitFor({ state: 'attached', timeout: 30_000 });
      await expect
        .poll(() => page.evaluate('window.__liveStreams.some((s) => s.readyState === 1)'), {
          timeout: 30_000,
        })
        .toBe(true);
      // The stream names the list the map was drawn from, and starts from it: kept as it is, or
      // (when a station changed meanwhile) replaced by the whole list.
      expect(await page.evaluate('window.__liveStreams[0].url')).toMatch(/&known=[0-9a-f]{32}$/);
      await expect
        .poll(() => page.evaluate('window.__stationEvents[0] ?? null'), { timeout: 30_000 })
        .not.toBeNull();
      const opened = JSON.parse((await page.evaluate('window.__stationEvents[0]')) as string) as {
        full: boolean;
        kept?: boolean;
        changed: unknown[];
      };
      expect(opened.full).toBe(true);
      if (opened.kept) expect(opened.changed).toEqual([]);
      else expect(opened.changed.length).toBeGreaterThan(0);

      // The station appears on the server only now, after the page loaded its list.
      station = await connectFirmware(mqttPort, {
        mqtt: { user: creds.user, pass: creds.pass, server: '127.0.0.1', port: String(mqttPort) },
        config: {
          stationName: name,
          adminPw: 'e2e-admin-pw',
          latitude: String(location[0]),
          longitude: String(location[1]),
          tz: 'UTC0',
        },
      });
      const stationId = `${name}@${creds.user}`;
      await map.scrollIntoViewIfNeeded();
      const box = await map.boundingBox();
      if (!box) throw new Error('the map has no box');
      const [cx, cy] = mercator(MAP_DEFAULT_CENTER[0], MAP_DEFAULT_CENTER[1], MAP_DEFAULT_ZOOM);
      const [sx, sy] = mercator(location[0], location[1], MAP_DEFAULT_ZOOM);
      const x = box.x + box.width / 2 + (sx - cx);
      const y = box.y + box.height / 2 + (sy - cy);
      // A click on the station's marker opens its panel (a satellite passing over it may take the
      // click, so it is tried again).
      const panel = page.getByTestId('station-focus');
      await expect
        .poll(
          async () => {
            await page.mouse.click(x, y);
            return (await panel.count()) > 0 ? await panel.first().innerText() : '';
          },
          { timeout: 30_000, interval: 500 },
        )
        .toContain(stationId);
      expect(errors).toEqual([]);
    } finally {
      station?.client.end(true);
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
