import { screen, within, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { PACKETS_PAGE_SIZE, STORAGE_KEYS } from '@tinygs/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../test/fetchMock';
import { advanceTimers, renderWithApp } from '../../../test/render';
import StationPage from './StationPage';
import { ownerStation, packet, publicStation } from '../../../test/fixtures/stations';

const page = (n: number) =>
  Array.from({ length: PACKETS_PAGE_SIZE }, (_, i) => packet(n * PACKETS_PAGE_SIZE + i));
const oldestOf = (n: number) => page(n)[PACKETS_PAGE_SIZE - 1]?.serverTime;

function routes(id: string, station: object): Record<string, Reply> {
  const r: Record<string, Reply> = {
    [`/v1/station/${id}`]: { body: station },
    [`/v1/station/${id}/statistics`]: { body: [] },
    [`/v1/packets?station=${id}`]: { body: page(0) },
  };
  for (let n = 1; n <= 5; n += 1)
    r[`/v1/packets?station=${id}&before=${oldestOf(n - 1)}`] = { body: page(n) };
  return r;
}

function renderStation(id: string) {
  return renderWithApp(<StationPage />, { route: `/station/${id}`, path: '/station/:stationId' });
}

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Station packets', () => {
  afterEach(() => vi.useRealTimers());

  it('offers Load more to the owner only', async () => {
    mockFetch(routes('Seen@42', publicStation({ name: 'Seen' })));
    renderStation('Seen@42');
    await screen.findByRole('link', { name: 'Seen@42' });
    await screen.findAllByRole('link', { name: /2025|Mar/ });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('pages back with the session headers; a 4th page within 10 s waits 11 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.setItem(STORAGE_KEYS.userId, '42');
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
    const calls = mockFetch(routes('Pager@42', ownerStation({ name: 'Pager' })));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderStation('Pager@42');
    const list = await screen.findByRole('list', { name: 'Received packets' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(PACKETS_PAGE_SIZE);
    const pages = () => calls.filter((c) => c.url.includes('&before='));

    for (let n = 1; n <= 3; n += 1) {
      await user.click(screen.getByRole('button', { name: 'Load more' }));
      await screen.findByRole('button', { name: 'Load more' });
      expect(pages()).toHaveLength(n);
    }
    const third = pages()[2];
    expect(third?.url).toBe(`/v1/packets?station=Pager@42&before=${oldestOf(2)}`);
    expect((third?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
    expect(within(list).getAllByRole('listitem')).toHaveLength(4 * PACKETS_PAGE_SIZE);

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(screen.getByRole('button', { name: 'Loading...' })).toBeDisabled();
    await advanceTimers(10_000);
    expect(pages()).toHaveLength(3);
    await advanceTimers(1_100);
    expect(pages()).toHaveLength(4);
    expect(await screen.findByRole('button', { name: 'Load more' })).toBeEnabled();
  });

  it('filters rows and the viewer by satellite', async () => {
    const packets = [
      packet(1),
      packet(2, { id: 'f1', satellite: 'FossaSat-2E11', satDisplayName: 'FOSSA 2E11' }),
    ];
    mockFetch({
      ...routes('Filter@42', publicStation({ name: 'Filter' })),
      '/v1/packets?station=Filter@42': { body: packets },
    });
    const user = userEvent.setup();
    renderStation('Filter@42');
    const list = await screen.findByRole('list', { name: 'Received packets' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('combobox', { name: 'Satellite' }));
    await user.click(screen.getByRole('option', { name: 'FOSSA 2E11' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByRole('link')).toHaveAttribute('href', '/packet/f1');
    expect(screen.getByTitle('Satellite viewer: FossaSat-2E11')).toHaveAttribute(
      'src',
      '/viewer?sat=FossaSat-2E11&gs=40.4168,-3.7038',
    );
  });
});
