import { act, screen, waitFor, within, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { STORAGE_KEYS, type Picture, type StationListItem } from '@tinygs/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../test/fetchMock';
import { renderWithApp, testQueryClient } from '../../../test/render';
import { useOwnStationIps } from '../stations';
import StationPage from './StationPage';
import { ownerStation, packet, publicStation } from '../../../test/fixtures/stations';

/** A station as the public list shows it. */
const LIST_ENTRY: StationListItem = {
  name: 'Listed',
  userId: '7',
  location: [40.4, -3.7],
  status: 1,
  lastSeen: null,
  lastPacketTime: null,
  version: null,
  satellite: null,
  autoTune: null,
};

function login(userId = '42') {
  localStorage.setItem(STORAGE_KEYS.userId, userId);
  localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
}

/** Station, statistics and first packet page of one station; each test uses its own name. */
function stationRoutes(id: string, station: object, extra: Record<string, Reply> = {}) {
  return {
    [`/v1/station/${id}`]: { body: station },
    [`/v1/station/${id}/statistics`]: { body: [] },
    [`/v1/packets?station=${id}`]: { body: [packet(1), packet(2)] },
    ...extra,
  };
}

function renderStation(id: string, client?: QueryClient) {
  return renderWithApp(<StationPage />, {
    route: `/station/${id}`,
    path: '/station/:stationId',
    client,
  });
}

const infoValue = (label: string) => {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
};

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Station page for visitors', () => {
  it('shows the card, the info panel, the viewer and packet rows, without owner actions', async () => {
    const calls = mockFetch(
      stationRoutes('Visit@42', publicStation({ name: 'Visit' }), {
        '/v1/station/Visit@42/statistics': { status: 500, body: { error: 'x' } },
      }),
    );
    renderStation('Visit@42');
    expect(await screen.findByRole('link', { name: 'Visit@42' })).toBeInTheDocument();
    expect(infoValue('Locator')).toBe('IN80dk');
    expect(infoValue('Elevation')).toBe('650.46 m');
    expect(infoValue('Record distance')).toBe('2345.7 km');
    expect(screen.queryByText('Wi-Fi signal')).toBeNull();
    expect(screen.queryByText('Local IP')).toBeNull();
    expect(screen.queryByRole('toolbar', { name: 'Owner actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit station' })).toBeNull();
    expect(screen.getByTitle('Satellite viewer: Norbi')).toHaveAttribute(
      'src',
      '/viewer?sat=Norbi&gs=40.4168,-3.7038',
    );
    const rows = await screen.findAllByRole('link', { name: /2025|Mar/ });
    expect(rows[0]).toHaveAttribute('href', '/packet/p1');
    expect(await screen.findByText('Error loading statistics')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    // A visitor's request carries no session.
    const get = calls.find((c) => c.url === '/v1/station/Visit@42');
    expect((get?.init?.headers as Record<string, string>).sessionToken).toBeUndefined();
  });

  it('hides the owner bar from a logged-in user who does not own the station', async () => {
    login('7');
    mockFetch(stationRoutes('Other@42', publicStation({ name: 'Other' })));
    renderStation('Other@42');
    expect(await screen.findByRole('link', { name: 'Other@42' })).toBeInTheDocument();
    expect(screen.queryByRole('toolbar', { name: 'Owner actions' })).toBeNull();
  });

  it('shows approved pictures, a placeholder and the warning for pending ones, hides skipped ones', async () => {
    const pic = (shortId: string, status: number): Picture => ({
      status,
      size: 1000,
      origName: `${shortId}.jpg`,
      type: 'image/jpeg',
      shortId,
      src: `/pictures/${shortId}.jpg`,
    });
    mockFetch(
      stationRoutes(
        'Pics@42',
        publicStation({ name: 'Pics', pictures: [pic('ok', 1), pic('wait', 0), pic('no', -1)] }),
      ),
    );
    renderStation('Pics@42');
    expect(await screen.findByRole('img', { name: 'ok.jpg' })).toHaveAttribute(
      'src',
      '/pictures/ok.jpg',
    );
    expect(screen.getByRole('img', { name: 'wait.jpg (waiting for approval)' })).toBeVisible();
    expect(
      screen.getByText(
        'Some of the files are waiting for aproval. This usually takes a few hours.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /no\.jpg/ })).toBeNull();
  });
});

describe('Station loading', () => {
  it('reuses a station already fetched in this session without a new call', async () => {
    const calls = mockFetch(stationRoutes('Cache@42', publicStation({ name: 'Cache' })));
    // One session: one query client for both visits.
    const client = testQueryClient();
    const first = renderStation('Cache@42', client);
    await screen.findByRole('link', { name: 'Cache@42' });
    first.unmount();
    renderStation('Cache@42', client);
    expect(screen.getByRole('link', { name: 'Cache@42' })).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v1/station/Cache@42')).toHaveLength(1);
  });

  it('tries 3 times, then says Error loading station data with the last message', async () => {
    const calls = mockFetch({
      '/v1/station/Gone@42': { status: 404, body: { error: 'Unknown station: Gone@42' } },
    });
    renderStation('Gone@42');
    expect(await screen.findByText(/Error loading station data/)).toHaveTextContent(
      'Error loading station data: Unknown station: Gone@42',
    );
    expect(calls.filter((c) => c.url === '/v1/station/Gone@42')).toHaveLength(3);
  });

  it('says Request timeout - trying again... and retries after a time-out', async () => {
    let attempts = 0;
    let finish: (res: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url !== '/v1/station/Slow@42')
          return Promise.resolve(
            new Response('[]', { headers: { 'content-type': 'application/json' } }),
          );
        attempts += 1;
        if (attempts === 1) return Promise.reject(new DOMException('timed out', 'TimeoutError'));
        return new Promise<Response>((resolve) => (finish = resolve));
      }),
    );
    renderStation('Slow@42');
    expect(await screen.findByText('Request timeout - trying again...')).toBeInTheDocument();
    await vi.waitFor(() => expect(attempts).toBe(2));
    act(() =>
      finish(
        new Response(JSON.stringify(publicStation({ name: 'Slow' })), {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    expect(await screen.findByRole('link', { name: 'Slow@42' })).toBeInTheDocument();
  });

  it('does not promise another try after the last attempt timed out', async () => {
    const fetchMock = vi.fn((url: string) =>
      url === '/v1/station/Late@42'
        ? Promise.reject(new DOMException('timed out', 'TimeoutError'))
        : Promise.resolve(new Response('[]', { headers: { 'content-type': 'application/json' } })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderStation('Late@42');
    const alert = await screen.findByText(/Error loading station data/);
    expect(alert).toHaveTextContent(/^Error loading station data/);
    expect(alert).not.toHaveTextContent(/trying again/);
    expect(fetchMock.mock.calls.filter(([url]) => url === '/v1/station/Late@42')).toHaveLength(3);
  });

  it('stops at once when cancelled: Request cancelled, no retry', async () => {
    const fetchMock = vi.fn(
      (_url: string, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderStation('Stuck@42');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/Error loading station data/)).toHaveTextContent(
      'Request cancelled',
    );
    expect(fetchMock.mock.calls.filter(([url]) => url === '/v1/station/Stuck@42')).toHaveLength(1);
  });
  it('loads again with Try again after a cancel', async () => {
    let calls = 0;
    let finish: (res: Response) => void = () => undefined;
    const fetchMock = vi.fn((url: string, init?: RequestInit) => {
      if (url !== '/v1/station/Again@42')
        return Promise.resolve(
          new Response('[]', { headers: { 'content-type': 'application/json' } }),
        );
      calls += 1;
      if (calls > 1) return new Promise<Response>((resolve) => (finish = resolve));
      return new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderStation('Again@42');
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    // Loading again, not still cancelled.
    expect(await screen.findByText('Loading Again@42...')).toBeInTheDocument();
    expect(screen.queryByText(/Request cancelled/)).toBeNull();
    act(() =>
      finish(
        new Response(JSON.stringify(publicStation({ name: 'Again' })), {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    expect(await screen.findByRole('link', { name: 'Again@42' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});

describe('Station page for the owner', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    [-55, 'Very Good (-55 dBm)'],
    [-60, 'Very Good (-60 dBm)'],
    [-70, 'Good (-70 dBm)'],
    [-80, 'Low (-80 dBm)'],
    [-81, 'Very low (-81 dBm)'],
    [null, 'None'],
  ])('labels Wi-Fi %s dBm as %s', async (rssi, label) => {
    login();
    const name = `Wifi${String(rssi).replace('-', 'm')}`;
    mockFetch(stationRoutes(`${name}@42`, ownerStation({ name, wifiRssi: rssi })));
    renderStation(`${name}@42`);
    await screen.findByRole('link', { name: `${name}@42` });
    expect(infoValue('Wi-Fi signal')).toBe(label);
    expect(infoValue('Radio status')).toBe('Ready');
    expect(infoValue('Local IP')).toBe('192.168.1.20');
  });

  it("opens at once when the owner's station list already read it (Ground Control)", async () => {
    login();
    const calls = mockFetch(stationRoutes('Mine@42', ownerStation({ name: 'Mine' })));
    const mine: StationListItem[] = [{ ...LIST_ENTRY, name: 'Mine', userId: '42' }];
    function OwnIps() {
      return <p>{useOwnStationIps(mine).get('Mine@42') ?? 'no address'}</p>;
    }
    // One session: the list read the owner's view of the station, then the owner opens it.
    const client = testQueryClient();
    const list = renderWithApp(<OwnIps />, { client });
    await screen.findByText('192.168.1.20');
    list.unmount();
    renderStation('Mine@42', client);
    expect(screen.getByRole('link', { name: 'Mine@42' })).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v1/station/Mine@42')).toHaveLength(1);
  });

  it('shows the action bar; Delete is disabled while online with the hint', async () => {
    login();
    const calls = mockFetch(stationRoutes('Live@42', ownerStation({ name: 'Live' })));
    renderStation('Live@42');
    const bar = await screen.findByRole('toolbar', { name: 'Owner actions' });
    expect(within(bar).getByRole('button', { name: 'Edit station' })).toBeEnabled();
    expect(within(bar).getByRole('button', { name: 'Operate' })).toBeEnabled();
    const del = within(bar).getByRole('button', { name: 'Delete' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription('Only inactive stations can be deleted');
    const get = calls.find((c) => c.url === '/v1/station/Live@42');
    expect((get?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
  });

  /** GET answers the station; DELETE answers `onDelete`. */
  function withDelete(station: object, onDelete: Reply): Reply {
    return (init) => (init?.method === 'DELETE' ? onDelete : { body: station });
  }

  it('deletes an offline station after confirmation and goes to the user page', async () => {
    login();
    const calls = mockFetch(
      stationRoutes(
        'Old@42',
        {},
        {
          '/v1/station/Old@42': withDelete(ownerStation({ name: 'Old', status: 0 }), {
            body: { message: 'Station deleted' },
          }),
        },
      ),
    );
    const user = userEvent.setup();
    renderStation('Old@42');
    const bar = await screen.findByRole('toolbar', { name: 'Owner actions' });
    expect(within(bar).getByRole('button', { name: 'Operate' })).toBeDisabled();
    expect(screen.queryByText('Only inactive stations can be deleted')).toBeNull();
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This cannot be undone');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user/42'));
    const del = calls.find((c) => c.init?.method === 'DELETE');
    expect(del?.url).toBe('/v1/station/Old@42');
    expect((del?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
  });

  it('stays on the page when the deletion fails (logged only)', async () => {
    login();
    mockFetch(
      stationRoutes(
        'Stay@42',
        {},
        {
          '/v1/station/Stay@42': withDelete(ownerStation({ name: 'Stay', status: 0 }), {
            status: 409,
            body: { error: 'The station is online' },
          }),
        },
      ),
    );
    const user = userEvent.setup();
    renderStation('Stay@42');
    const bar = await screen.findByRole('toolbar', { name: 'Owner actions' });
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('location')).toHaveTextContent('/station/Stay@42');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
