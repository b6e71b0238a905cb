import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { AppProviders } from '../src/app/AppProviders';
import { AppRoutes } from '../src/app/AppRoutes';
import { mockFetch } from './fetchMock';
import { LocationProbe, testQueryClient } from './render';

function renderApp(route: string) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <AppProviders>
        <MemoryRouter initialEntries={[route]}>
          <AppRoutes />
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>
    </QueryClientProvider>,
  );
}

const EMPTY_API = {
  '/v2/packets': { body: { packets: [], templates: {} } },
  '/v1/statistics': { body: { members: 1, stations: 2, packets: 3 } },
  '/v1/satellites': { body: [] },
};

describe('app shell', () => {
  it('sets the document title on every navigation', async () => {
    const user = userEvent.setup();
    mockFetch(EMPTY_API);
    renderApp('/terms');
    await waitFor(() => expect(document.title).toBe('Terms - TinyGS'));

    await user.click(screen.getByRole('button', { name: 'Toggle navigation menu' }));
    await user.click(await screen.findByRole('link', { name: 'Packets' }));
    await waitFor(() => expect(document.title).toBe('Packets - TinyGS'));
    expect(await screen.findByRole('heading', { name: 'Last packets' })).toBeInTheDocument();
  });

  it('titles satellite pages with the satellite name', async () => {
    mockFetch({});
    renderApp('/satellite/FossaSat-2E11');
    await waitFor(() => expect(document.title).toBe('FossaSat-2E11 - TinyGS'));
  });

  it('opens a station by the last path segment of its URL', async () => {
    const calls = mockFetch({});
    renderApp('/station/anything/Roof@42');
    await waitFor(() => expect(document.title).toBe('Roof@42 - TinyGS'));
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/v1/station/Roof@42'));
  });

  it('offers the navigation groups of the side drawer', async () => {
    const user = userEvent.setup();
    mockFetch(EMPTY_API);
    renderApp('/terms');
    await user.click(screen.getByRole('button', { name: 'Toggle navigation menu' }));
    const satellites = await screen.findByRole('list', { name: 'Satellites' });
    const names = Array.from(satellites.querySelectorAll('a'), (a) => a.textContent);
    expect(names).toEqual([
      'Active',
      'FSK',
      'Starlink',
      'Inactive',
      'Future',
      'Surveillance Mode',
      'Balloons',
    ]);
    const about = screen.getByRole('list', { name: 'About' });
    expect(Array.from(about.querySelectorAll('a'), (a) => a.getAttribute('href'))).toEqual([
      '/about',
      '/history',
      '/terms',
    ]);
    // The page shown is marked as the current one, and only it.
    const current = Array.from(document.querySelectorAll('nav a[aria-current="page"]'), (a) =>
      a.getAttribute('href'),
    );
    expect(new Set(current)).toEqual(new Set(['/terms']));
  });

  it('shows Login, Register and Donate to visitors', async () => {
    mockFetch(EMPTY_API);
    renderApp('/terms');
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Donate' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign Out' })).not.toBeInTheDocument();
  });

  it('opens the Request Weblogin dialog from Login', async () => {
    const user = userEvent.setup();
    mockFetch(EMPTY_API);
    renderApp('/terms');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('dialog', { name: 'Request Weblogin' })).toBeInTheDocument();
  });

  it('signs a logged-in user out: clears the session, calls logout, returns to /', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(STORAGE_KEYS.userId, '42');
    window.localStorage.setItem(STORAGE_KEYS.sessionToken, 'sess');
    const calls = mockFetch({ ...EMPTY_API, '/v1/logout': { body: '' } });
    renderApp('/terms');
    expect(screen.getByRole('link', { name: 'User console' })).toHaveAttribute('href', '/user/42');
    expect(screen.queryByRole('button', { name: 'Login' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionToken)).toBeNull();
    const logout = calls.find((c) => c.url === '/v1/logout');
    expect(new Headers(logout?.init?.headers).get('sessionToken')).toBe('sess');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
  });
});
