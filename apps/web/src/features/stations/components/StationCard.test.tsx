import type { StationFull, StationListItem } from '@tinygs/contracts';
import { cleanup, render, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../../test/fetchMock';
import { testQueryClient } from '../../../../test/render';
import { ownerStation } from '../../../../test/fixtures/stations';
import { StationCard } from './StationCard';
import { StationsList } from './StationsList';

function station(over: Partial<StationListItem>): StationListItem {
  return {
    name: 'Alpha',
    userId: '42',
    location: [40.4, -3.7],
    status: 1,
    lastSeen: Date.parse('2024-05-01T10:00:00Z'),
    lastPacketTime: null,
    version: 2603242,
    satellite: 'norby2',
    satDisplayName: 'Norby-2',
    autoTune: 433,
    ...over,
  };
}

afterEach(cleanup);

const inRouter = (ui: ReactElement) =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );

describe('StationCard', () => {
  it('links {name}@{userId} to the station page and shows status, version and satellite', () => {
    inRouter(<StationCard station={station({})} />);
    expect(screen.getByRole('link', { name: 'Alpha@42' }).getAttribute('href')).toBe(
      '/station/Alpha@42',
    );
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByText('2603242')).toBeTruthy();
    expect(screen.getByText('Norby-2')).toBeTruthy();
    expect(screen.queryByText('Last seen')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Ground Control' })).toBeNull();
  });

  it('shows Last seen for an offline station', () => {
    inRouter(<StationCard station={station({ status: 0 })} />);
    expect(screen.getByText('Offline')).toBeTruthy();
    expect(screen.getByText('Last seen')).toBeTruthy();
  });

  it('offers Ground Control at the local IP the station reports', () => {
    const full = {
      ...station({}),
      id: 'Alpha@42',
      local_ip: '192.168.1.50',
    } as unknown as StationFull;
    inRouter(<StationCard station={full} />);
    expect(screen.getByRole('link', { name: 'Ground Control' }).getAttribute('href')).toBe(
      'http://192.168.1.50',
    );
  });
});

describe('StationsList', () => {
  const stations = [
    station({ name: 'Charlie', userId: '3', status: 0, lastPacketTime: 3000 }),
    station({ name: 'alpha', userId: '1', status: 0, lastPacketTime: null }),
    station({
      name: 'Bravo',
      userId: '2',
      status: 1,
      lastPacketTime: 1000,
      satDisplayName: 'FossaSat-2E11',
    }),
  ];
  const names = () =>
    screen
      .getAllByTestId('station-card')
      .map((c) => within(c).getAllByRole('link')[0]?.textContent);

  it('sorts by name, status and last packet', async () => {
    const user = userEvent.setup();
    inRouter(<StationsList stations={stations} />);
    expect(names()).toEqual(['alpha@1', 'Bravo@2', 'Charlie@3']);

    await user.click(screen.getByRole('combobox'));
    await user.click(within(screen.getByRole('listbox')).getByText('Status'));
    expect(names()).toEqual(['Bravo@2', 'alpha@1', 'Charlie@3']);

    await user.click(screen.getByRole('combobox'));
    await user.click(within(screen.getByRole('listbox')).getByText('Last packet'));
    expect(names()).toEqual(['Charlie@3', 'Bravo@2', 'alpha@1']);
  });

  it("offers Ground Control on the signed-in owner's own stations that report a local IP", async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '2');
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
    const calls = mockFetch({
      '/v1/station/Bravo@2': {
        body: ownerStation({ name: 'Bravo', userId: '2', local_ip: '10.0.0.7' }),
      },
    });
    inRouter(<StationsList stations={stations} />);
    const link = await screen.findByRole('link', { name: 'Ground Control' });
    expect(link).toHaveAttribute('href', 'http://10.0.0.7');
    expect(link.closest('[data-testid="station-card"]')).toHaveTextContent('Bravo@2');
    // Nobody else's station is read in the owner's view.
    expect(calls.map((c) => c.url)).toEqual(['/v1/station/Bravo@2']);
    expect(screen.getAllByRole('link', { name: 'Ground Control' })).toHaveLength(1);
  });

  it('searches by station id and satellite', async () => {
    const user = userEvent.setup();
    inRouter(<StationsList stations={stations} />);
    await user.type(screen.getByLabelText('Search'), 'fossa');
    expect(names()).toEqual(['Bravo@2']);
    await user.clear(screen.getByLabelText('Search'));
    await user.type(screen.getByLabelText('Search'), 'charlie@3');
    expect(names()).toEqual(['Charlie@3']);
  });
});
