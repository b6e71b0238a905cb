import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/preact';
import { STORAGE_KEYS } from '@tinygs/contracts';
import HomeRoute from '../src/app/routes/HomeRoute';
import { LOGIN_LINK_ERROR } from '../src/features/auth';
import { STATISTICS_ERROR, StatisticsCards } from '../src/features/statistics';
import { PhotoCarousel, useCarouselPhotos } from '../src/features/home';
import { buildSatellite } from './fixtures/satellites';
import { mockFetch } from './fetchMock';
import { renderWithApp } from './render';

describe('network statistics', () => {
  it('shows members, active stations and received telemetry', async () => {
    mockFetch({ '/v1/statistics': { body: { members: 5321, stations: 1200, packets: 9876543 } } });
    renderWithApp(<StatisticsCards />);
    expect(await screen.findByText('5,321')).toBeInTheDocument();
    expect(screen.getByText('Members')).toBeInTheDocument();
    expect(screen.getByText('1,200')).toBeInTheDocument();
    expect(screen.getByText('Active Stations')).toBeInTheDocument();
    expect(screen.getByText('9,876,543')).toBeInTheDocument();
    expect(screen.getByText('Received Telemetry')).toBeInTheDocument();
  });

  it('says Error loading statistics when the call fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ '/v1/statistics': { status: 500, body: { error: 'down' } } });
    renderWithApp(<StatisticsCards />);
    expect(await screen.findByText(STATISTICS_ERROR)).toBeInTheDocument();
    expect(STATISTICS_ERROR).toBe('Error loading statistics');
  });
});

describe('login link on the home page', () => {
  // Mounted at / only, as in the app: the user page it navigates to is not Home again.
  const link = '/?loginToken=tok123&userId=42';

  it('logs in, stores the session and opens the user page', async () => {
    const calls = mockFetch({ '/v1/login': { body: { sessionToken: 'sess-1' } } });
    renderWithApp(<HomeRoute />, { route: link, path: '/' });
    expect(await screen.findByText('Logging in...')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user/42'));
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBe('42');
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionToken)).toBe('sess-1');
    expect(calls.map((c) => c.url)).toEqual(['/v1/login']);
    expect(calls[0]?.init?.method).toBe('POST');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      loginToken: 'tok123',
      userId: '42',
    });
  });

  it('shows the expired-token alert when the login fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ '/v1/login': { status: 401, body: { error: 'expired' } } });
    renderWithApp(<HomeRoute />, { route: link, path: '/' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Login error! This login token has expired.',
    );
    expect(LOGIN_LINK_ERROR).toBe('Login error! This login token has expired.');
    expect(window.localStorage.getItem(STORAGE_KEYS.sessionToken)).toBeNull();
  });

  it('goes straight to the user page when a user id is already stored', async () => {
    window.localStorage.setItem(STORAGE_KEYS.userId, '7');
    window.localStorage.setItem(STORAGE_KEYS.sessionToken, 'old');
    const calls = mockFetch({});
    renderWithApp(<HomeRoute />, { route: link, path: '/' });
    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/user/7'));
    expect(calls.map((c) => c.url)).toEqual([]);
  });
});

function PhotoCarouselFromApi() {
  const photos = useCarouselPhotos();
  return <PhotoCarousel photos={photos.data ?? []} />;
}

describe('photo carousel', () => {
  it('shows approved station photos, linking to their stations', async () => {
    const calls = mockFetch({
      '/v1/pictures?limit=12': {
        body: [
          {
            stationId: 'Roof_1@42',
            src: '/pictures/a.jpg',
            thumb: '/pictures/a_thumb.jpg',
            createdAt: 2,
          },
          {
            stationId: 'Mast_2@7',
            src: '/pictures/b.jpg',
            thumb: '/pictures/b_thumb.jpg',
            createdAt: 1,
          },
        ],
      },
    });
    renderWithApp(<PhotoCarouselFromApi />);
    const link = await screen.findByRole('link', { name: 'Roof_1@42' });
    expect(link).toHaveAttribute('href', '/station/Roof_1%4042');
    expect(screen.getByRole('img', { name: 'Roof_1@42' })).toHaveAttribute(
      'src',
      '/pictures/a.jpg',
    );
    expect(calls.map((c) => c.url)).toEqual(['/v1/pictures?limit=12']);
  });

  it('falls back to satellite images while no station photo is approved', async () => {
    const calls = mockFetch({
      '/v1/pictures?limit=12': { body: [] },
      '/v1/satellites': {
        body: [
          buildSatellite({ name: 'Norbi', displayName: 'Norby', images: ['/images/norbi.svg'] }),
          buildSatellite({ name: 'Bare', images: [] }),
        ],
      },
    });
    renderWithApp(<PhotoCarouselFromApi />);
    const link = await screen.findByRole('link', { name: 'Norby' });
    expect(link).toHaveAttribute('href', '/satellite/Norbi');
    expect(calls.map((c) => c.url)).toEqual(['/v1/pictures?limit=12', '/v1/satellites']);
  });
});
