// Every route of SPEC.md section 2 in a real browser: the title ends with the product name, the
// main region shows the screen's own heading and data the API holds, nothing is logged as an error,
// and axe-core finds no serious or critical accessibility violation. Narrow phones (375 px) for the
// busiest screens.
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
  /** the screen's own first-level heading, inside the main region */
  heading: () => string | RegExp;
  /** a text from the API that only this screen shows, inside the main region */
  data?: () => string | RegExp;
  /** opened by the signed-in demo user (the user console is an owner's screen) */
  owner?: boolean;
}

const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');

interface ApiSatellite {
  name: string;
  displayName: string;
  status: string;
  frames: number;
  lastPacketTime: number | null;
  configurations: { mode: string; freq: number }[];
}

/** What the API holds, read before the screens are opened: each screen must show some of it. */
const api = {
  packet: { id: '', heading: '', station: '' },
  station: '',
  user: '',
  userStation: '',
  firstStation: '',
  members: '',
  packetSatellite: '',
  inactive: { name: '', displayName: '' },
  satellites: [] as ApiSatellite[],
  retiredBalloons: [] as ApiSatellite[],
  tleLine1: '',
};

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`);
  if (!res.ok) throw new Error(`GET ${path} -> ${res.status}`);
  return (await res.json()) as T;
}

function displayNameOf(statuses: string[], extra: (s: ApiSatellite) => boolean = () => true) {
  const found = [...api.satellites, ...api.retiredBalloons].find(
    (s) => statuses.includes(s.status) && extra(s),
  );
  if (!found) throw new Error(`no ${statuses.join('/')} satellite in the catalogue`);
  return found.displayName;
}

const DAY_MS = 86_400_000;
/** The Starlink and Surveillance tables list satellites heard often and recently, or say so. */
function tableData(status: string, band?: [number, number]): string | RegExp {
  const inTable = (s: ApiSatellite) =>
    s.status === status &&
    (!band || s.configurations.some((c) => c.freq > band[0] && c.freq < band[1]));
  const shown = api.satellites.find(
    (s) =>
      inTable(s) &&
      s.frames >= 10 &&
      s.lastPacketTime !== null &&
      Date.now() - s.lastPacketTime <= 365 * DAY_MS,
  );
  // Frame counts only grow, so a satellite shown when the API was read is still shown. When none
  // was, the simulator may take one over the threshold before the page loads: then the table holds
  // one of that status and band, never a satellite of another table.
  if (shown) return shown.displayName;
  const candidates = api.satellites.filter(inTable).map((s) => escapeRegExp(s.displayName));
  return new RegExp(
    `^(${[escapeRegExp('No satellites found matching your criteria.'), ...candidates].join('|')})$`,
  );
}

const exact = (text: string) => new RegExp(`^${escapeRegExp(text)}$`);

const ROUTES: RouteCase[] = [
  { name: 'home', path: () => '/', heading: () => 'Welcome to TinyGS', data: () => api.members },
  // The map view draws its stations on a canvas; the list view names them.
  { name: 'stations', path: () => '/stations', heading: () => 'Stations' },
  {
    name: 'stationsList',
    path: () => '/stations?view=list',
    heading: () => 'Stations',
    data: () => api.firstStation,
  },
  {
    name: 'packets',
    path: () => '/packets',
    heading: () => 'Last packets',
    data: () => exact(api.packetSatellite),
  },
  {
    name: 'satellites',
    path: () => '/satellites',
    heading: () => 'Active Satellites',
    data: () => exact('Norby'),
  },
  {
    name: 'satellitesFSK',
    path: () => '/satellitesFSK',
    heading: () => 'FSK Satellites',
    data: () =>
      exact(
        displayNameOf(['Supported'], (s) =>
          s.configurations.some((c) => c.mode === 'FSK' && c.freq > 400 && c.freq < 550),
        ),
      ),
  },
  // SPEC.md section 2: also written /satelliteFSK in one place; both must work.
  {
    name: 'satelliteFSK',
    path: () => '/satelliteFSK',
    heading: () => 'FSK Satellites',
    data: () =>
      exact(
        displayNameOf(['Supported'], (s) =>
          s.configurations.some((c) => c.mode === 'FSK' && c.freq > 400 && c.freq < 550),
        ),
      ),
  },
  {
    name: 'satellitesSL',
    path: () => '/satellitesSL',
    heading: () => 'Starlink Satellites',
    data: () => tableData('SupportedSL', [130, 300]),
  },
  {
    name: 'satellitesIna',
    path: () => '/satellitesIna',
    heading: () => 'Inactive Satellites',
    data: () => exact(api.inactive.displayName),
  },
  {
    name: 'satellitesFut',
    path: () => '/satellitesFut',
    heading: () => 'Future Satellites',
    data: () => exact(displayNameOf(['Future'])),
  },
  {
    name: 'satellitesSurv',
    path: () => '/satellitesSurv',
    heading: () => 'Surveillance Mode',
    data: () => tableData('Surveillance'),
  },
  // The retired balloons are listed too (the default filter is Balloon and BInactive).
  {
    name: 'balloons',
    path: () => '/balloons',
    heading: () => 'Balloons',
    data: () => exact(displayNameOf(['BInactive'])),
  },
  {
    name: 'satellite',
    path: () => '/satellite/Norbi',
    heading: () => 'Norby',
    data: () => api.tleLine1,
  },
  {
    name: 'satelliteIna',
    path: () => `/satelliteIna/${encodeURIComponent(api.inactive.name)}`,
    heading: () => api.inactive.displayName,
    data: () => exact('Inactive'),
  },
  {
    name: 'packet',
    path: () => `/packet/${api.packet.id}`,
    heading: () => api.packet.heading,
    data: () => exact(api.packet.station),
  },
  // Any stored packet opens on the inactive packet view as well (the same API answer).
  {
    name: 'packetIna',
    path: () => `/packetIna/${api.packet.id}`,
    heading: () => api.packet.heading,
    data: () => exact(api.packet.station),
  },
  {
    name: 'station',
    path: () => `/station/${api.station}`,
    heading: () => 'Station Console',
    data: () => api.station,
  },
  // The station id is the last path segment (SPEC.md section 2).
  {
    name: 'stationLastSegment',
    path: () => `/station/anything/${api.station}`,
    heading: () => 'Station Console',
    data: () => api.station,
  },
  {
    name: 'user',
    path: () => `/user/${api.user}`,
    heading: () => 'User Console',
    data: () => api.userStation,
    owner: true,
  },
  // The April page shows only a title (SPEC.md section 2).
  { name: 'april', path: () => '/april/1', heading: () => 'April Fools!' },
  { name: 'about', path: () => '/about', heading: () => 'Meet the team', data: () => api.members },
  { name: 'history', path: () => '/history', heading: () => 'History', data: () => api.members },
  { name: 'terms', path: () => '/terms', heading: () => /Terms/, data: () => /Spain/ },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// The main screens a visitor or owner opens on a phone.
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
    api.packet.id = await somePacketId(baseUrl);
    const packet = await getJson<{
      name?: string;
      satDisplayName: string;
      stations: { name: string; userId: string }[];
    }>(`/v1/packet/${api.packet.id}`);
    api.packet.heading = packet.name ?? `${packet.satDisplayName} packet`;
    // The receiving stations table names each station and links to its page.
    api.packet.station = packet.stations[0]?.name ?? 'No station data for this packet.';
    api.station = await someStationId(baseUrl);
    api.user = demoLoginLink(dataDir, baseUrl).searchParams.get('userId') ?? '';
    const own = await getJson<{ name: string; userId: string }[]>(
      `/v1/stations?userId=${api.user}`,
    );
    api.userStation = own[0] ? `${own[0].name}@${own[0].userId}` : 'NEW STATION';
    const all = await getJson<{ name: string; userId: string }[]>('/v1/stations');
    const first = [...all].sort(
      (a, b) =>
        a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
        a.userId.localeCompare(b.userId),
    )[0];
    api.firstStation = first ? `${first.name}@${first.userId}` : 'No stations';
    const stats = await getJson<{ members: number }>('/v1/statistics');
    api.members = new Intl.NumberFormat('en-US').format(stats.members);
    const packets = await getJson<{ packets: { satDisplayName: string }[] }>('/v2/packets');
    api.packetSatellite = packets.packets[0]?.satDisplayName ?? packet.satDisplayName;
    api.inactive = await inactiveSatellite(baseUrl);
    api.satellites = await getJson<ApiSatellite[]>('/v1/satellites');
    api.retiredBalloons = await getJson<ApiSatellite[]>('/v1/satellites?status=BInactive');
    const norby = await getJson<{ tle: string[] | null }>('/v1/satellite/Norbi');
    api.tleLine1 = norby.tle?.[1] ?? 'Norbi';
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * Opens the screen and finds its heading and its data inside the main region: the side drawer
   * and the top bar name every screen, so a text found anywhere on the page would prove nothing.
   */
  async function open(page: Page, route: RouteCase): Promise<string[]> {
    const errors = collectErrors(page);
    if (route.owner) await logInWithLink(page, baseUrl, demoLoginLink(dataDir, baseUrl));
    await page.goto(`${baseUrl}${route.path()}`, { waitUntil: 'load' });
    await page.waitForFunction('document.title.endsWith("TinyGS")', undefined, { timeout: 15_000 });
    const main = page.getByRole('main');
    const checks = [
      ['heading', main.getByRole('heading', { level: 1, name: route.heading() })],
      ...(route.data ? [['data', main.getByText(route.data()).first()] as const] : []),
    ] as const;
    for (const [what, locator] of checks) {
      try {
        await locator.waitFor({ state: 'visible', timeout: 15_000 });
      } catch {
        const shown = String(await main.innerText().catch(() => '')).slice(0, 600);
        const wanted = what === 'heading' ? route.heading() : route.data?.();
        throw new Error(
          `${route.path()}: ${what} ${String(wanted)} not visible in main; main shows: ${shown}`,
        );
      }
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
