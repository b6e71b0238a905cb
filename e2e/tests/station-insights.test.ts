// What the station page tells about a station beyond its packets, in a real browser against the
// real server with simulated stations: its health (status timeline, uptime, outages, packets per
// day for 7 and 30 days, the latest changes with their causes) as GET /v1/station/{id}/health
// reports it.
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
});
