import { configure, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import type { LeaderboardBoard, LeaderboardPeriod, LeaderboardResponse } from '@tinygs/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../test/fetchMock';
import { renderWithApp } from '../../../test/render';
import { LEADERBOARD_TEXTS } from './components/LeaderboardTable';
import LeaderboardsPage from './LeaderboardsPage';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const station = (name: string) => ({ id: `${name}@42`, name, userId: '42' });

function answer(
  board: LeaderboardBoard,
  period: LeaderboardPeriod,
  entries: LeaderboardResponse['entries'],
): Record<string, Reply> {
  const body: LeaderboardResponse = {
    board,
    period,
    from: period === '30d' ? Date.UTC(2026, 9, 28) : null,
    computedAt: Date.UTC(2026, 10, 26),
    entries,
  };
  return { [`/v1/leaderboards?board=${board}&period=${period}&limit=10`]: { body } };
}

function rowsOf(title: string): string[][] {
  const table = screen.getByRole('table', { name: title });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent ?? ''),
    );
}

describe('leaderboards page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each board for 30 days, then for all time after the switch, linking stations and satellites', async () => {
    mockFetch({
      ...answer('packets', '30d', [
        { rank: 1, value: 12_345, station: station('Roof_GS') },
        { rank: 2, value: 77, station: station('Garden_GS') },
        { rank: 2, value: 77, station: station('Attic_GS') },
      ]),
      ...answer('satellites', '30d', [{ rank: 1, value: 9, station: station('Roof_GS') }]),
      ...answer('distance', '30d', [{ rank: 1, value: 2961.7, station: station('Attic_GS') }]),
      ...answer('satellite-packets', '30d', [
        { rank: 1, value: 4_000, satellite: { name: 'Norbi', displayName: 'Norbi (NORBY)' } },
      ]),
      ...answer('packets', 'all', [{ rank: 1, value: 99_000, station: station('Old_GS') }]),
      ...answer('satellites', 'all', []),
      ...answer('satellite-packets', 'all', []),
      // distance for all time fails
    });
    renderWithApp(<LeaderboardsPage />, { route: '/leaderboards' });

    expect(
      await screen.findByRole('table', { name: 'Stations by confirmed packets' }),
    ).toBeVisible();
    expect(rowsOf('Stations by confirmed packets')).toEqual([
      ['1', 'Roof_GS', '12,345'],
      ['2', 'Garden_GS', '77'],
      ['2', 'Attic_GS', '77'],
    ]);
    const packets = screen.getByRole('table', { name: 'Stations by confirmed packets' });
    expect(within(packets).getByRole('link', { name: 'Roof_GS' })).toHaveAttribute(
      'href',
      '/station/Roof_GS@42',
    );
    await screen.findByRole('table', { name: 'Stations by record distance' });
    expect(rowsOf('Stations by record distance')).toEqual([['1', 'Attic_GS', '2962']]);
    await screen.findByRole('table', { name: 'Satellites by packets' });
    expect(screen.getByRole('link', { name: 'Norbi (NORBY)' })).toHaveAttribute(
      'href',
      '/satellite/Norbi',
    );

    await userEvent.click(screen.getByRole('button', { name: 'All time' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/leaderboards?period=all');
    await screen.findByRole('link', { name: 'Old_GS' });
    expect(rowsOf('Stations by confirmed packets')).toEqual([['1', 'Old_GS', '99,000']]);
    const satellites = screen.getByRole('region', { name: 'Stations by satellites heard' });
    expect(await within(satellites).findByText(LEADERBOARD_TEXTS.empty)).toBeVisible();
    const distance = screen.getByRole('region', { name: 'Stations by record distance' });
    expect(await within(distance).findByText(LEADERBOARD_TEXTS.failed)).toBeVisible();
  });
});
