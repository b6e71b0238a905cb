// The leaderboards as a visitor finds them: from the main navigation to /leaderboards, whose four
// tables show the rankings GET /v1/leaderboards gives (the simulated stations' packets), for the
// last 30 days and, after the period switch, for all time; a row leads to its station's page.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectErrors, openBrowser, type Browser } from '../src/browser';
import { getJson } from '../src/owner';
import { describeViolations, seriousViolations, somePacketId, visible } from '../src/support';

const baseUrl = inject('baseUrl');

interface Board {
  entries: {
    rank: number;
    value: number;
    station?: { id: string; name: string };
    satellite?: { name: string; displayName: string };
  }[];
}

const count = new Intl.NumberFormat('en-US');
const label = (e: Board['entries'][number]) => e.station?.name ?? e.satellite?.displayName ?? '';

/** The ranking once it lists someone (a ranking is kept a minute, so it may start empty). */
async function rankingWithEntries(query: string): Promise<Board> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const board = await getJson<Board>(baseUrl, `/v1/leaderboards?${query}`);
    if (board.entries.length > 0 || Date.now() > deadline) return board;
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

describe('leaderboards in the browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await openBrowser(inject('chromiumPath'));
    page = await browser.newPage({ width: 1366, height: 900 });
    errors = collectErrors(page);
    await somePacketId(baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /**
   * The table shows the API's ranking: each row its rank, name and value. Asked again until they
   * agree, since a ranking older than a minute is recomputed between two reads.
   */
  async function expectTable(title: string, query: string): Promise<Board> {
    const table = page.getByRole('region', { name: title }).getByRole('table', { name: title });
    await visible(page, table, `the table ${title}`, 20_000);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const board = await getJson<Board>(baseUrl, `/v1/leaderboards?${query}&limit=10`);
      const wanted = board.entries.map((e) => [String(e.rank), label(e), count.format(e.value)]);
      const rows = await table.locator('tbody tr').allInnerTexts();
      const shown = rows.map((r) => r.split('\t').map((cell) => cell.trim()));
      if (JSON.stringify(shown) === JSON.stringify(wanted)) return board;
      if (Date.now() > deadline) expect(shown).toEqual(wanted);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  it('opens from the navigation and shows the rankings for 30 days and for all time', async () => {
    for (const board of ['packets', 'satellite-packets'])
      for (const period of ['30d', 'all'])
        expect((await rankingWithEntries(`board=${board}&period=${period}`)).entries).not.toEqual(
          [],
        );

    await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await (
      await visible(page, nav.getByRole('link', { name: 'Leaderboards' }), 'the nav link')
    ).click();
    await page.waitForURL(/\/leaderboards$/, { timeout: 15_000 });
    await visible(
      page,
      page.getByRole('main').getByRole('heading', { level: 1, name: 'Leaderboards' }),
      'the heading',
    );
    expect(await page.title()).toMatch(/^Leaderboards.*TinyGS$/);
    await expectTable('Stations by confirmed packets', 'board=packets&period=30d');
    await expectTable('Satellites by packets', 'board=satellite-packets&period=30d');
    for (const title of ['Stations by satellites heard', 'Stations by record distance'])
      await visible(page, page.getByRole('region', { name: title }), title);
    expect(describeViolations(await seriousViolations(page))).toEqual([]);

    await page.getByRole('button', { name: 'All time' }).click();
    await page.waitForURL(/\/leaderboards\?period=all$/, { timeout: 15_000 });
    const allPackets = await expectTable(
      'Stations by confirmed packets',
      'board=packets&period=all',
    );
    await expectTable('Satellites by packets', 'board=satellite-packets&period=all');

    const leader = allPackets.entries[0]?.station;
    if (!leader) throw new Error('no station in the all-time ranking');
    await page
      .getByRole('region', { name: 'Stations by confirmed packets' })
      .getByRole('link', { name: leader.name })
      .first()
      .click();
    await page.waitForURL(
      new RegExp(`/station/${leader.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      {
        timeout: 15_000,
      },
    );
    expect(errors).toEqual([]);
  });
});
