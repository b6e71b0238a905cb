// What the station page tells about a station beyond its packets, in a real browser against the
// real server with simulated stations: its health (status timeline, uptime, outages, packets per
// day for 7 and 30 days, the latest changes with their causes) as GET /v1/station/{id}/health
// reports it, and its next passes as GET /v1/station/{id}/passes lists them; the satellite page
// lists one satellite's passes over a place the visitor enters.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { getJson } from '../src/owner';
import { someStationId, visible } from '../src/support';

const baseUrl = inject('baseUrl');

interface Health {
  uptimePercent: number | null;
  outages: number;
  packetsPerDay: number;
  transitions: { at: number; online: boolean; cause: string }[];
  daily: unknown[];
}

interface Passes {
  band: number | null;
  passes: { satellite: string; displayName: string; aos: number; autoTune: boolean }[];
}

function percentText(value: number | null): string {
  return value === null ? '–' : `${value.toFixed(1)} %`;
}

describe('station page insights in the browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let stationId = '';

  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
    page = await browser.newPage({ width: 1366, height: 900 });
    errors = collectErrors(page);
    stationId = await someStationId(baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the station health for 7 and 30 days as the API reports it', async () => {
    const week = await getJson<Health>(baseUrl, `/v1/station/${stationId}/health?days=7`);
    // A simulated station connected when the server started.
    expect(week.transitions.some((t) => t.online && t.cause === 'connect')).toBe(true);
    await page.goto(`${baseUrl}/station/${stationId}`, { waitUntil: 'load' });
    const section = page.getByRole('region', { name: 'Station health' });
    await visible(page, section.getByTestId('status-timeline'), 'the status timeline', 45_000);
    await visible(page, section.getByText(percentText(week.uptimePercent)), 'the 7-day uptime');
    await visible(page, section.getByText('Connected to the broker'), 'the connect transition');
    expect(
      await section.getByRole('img', { name: /Status timeline of the last 7 days/ }).count(),
    ).toBe(1);
    expect(await section.getByRole('img', { name: 'Packets and uptime per day' }).count()).toBe(1);

    await section.getByRole('button', { name: '30 days' }).click();
    const month = await getJson<Health>(baseUrl, `/v1/station/${stationId}/health?days=30`);
    expect(month.daily).toHaveLength(30);
    await visible(
      page,
      section.getByRole('img', { name: /Status timeline of the last 30 days/ }),
      'the 30-day timeline',
    );
    await visible(page, section.getByText(percentText(month.uptimePercent)), 'the 30-day uptime');
    expect(errors).toEqual([]);
  });

  it('lists the station’s next passes, marking those auto-tune is tuned to', async () => {
    const api = await getJson<Passes>(baseUrl, `/v1/station/${stationId}/passes`);
    expect(api.band).not.toBeNull();
    expect(api.passes.length).toBeGreaterThan(0);
    await page.goto(`${baseUrl}/station/${stationId}`, { waitUntil: 'load' });
    const section = page.getByRole('region', { name: 'Next passes' });
    const table = section.getByRole('table', { name: 'Next passes over this station' });
    await visible(page, table, 'the pass table', 45_000);
    const rows = table.getByTestId('pass-row');
    // The page may have asked a moment later: passes that ended meanwhile are gone.
    const shown = await rows.count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(api.passes.length);
    const last = api.passes.at(-1);
    await visible(page, rows.last().getByText(last?.displayName ?? ''), 'the last pass');
    expect(await section.getByText('Auto-tune', { exact: true }).count()).toBe(
      api.passes.slice(-shown).filter((p) => p.autoTune).length,
    );
    expect(errors).toEqual([]);
  });

  it('lists a satellite’s passes over a place the visitor enters', async () => {
    const api = await getJson<Passes>(baseUrl, `/v1/satellite/FEES/passes?lat=-33.87&lng=151.21`);
    await page.goto(`${baseUrl}/satellite/FEES`, { waitUntil: 'load' });
    const section = page.getByRole('region', { name: 'Next passes' });
    await (
      await visible(page, section.getByLabel('Latitude'), 'the latitude field')
    ).fill('-33.87');
    await section.getByLabel('Longitude').fill('151.21');
    await section.getByRole('button', { name: 'Show passes' }).click();
    const table = section.getByRole('table', { name: 'Next passes over -33.87, 151.21' });
    await visible(page, table, 'the pass table', 45_000);
    const shown = await table.getByTestId('pass-row').count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThanOrEqual(api.passes.length);
    expect(errors).toEqual([]);
  });
});
