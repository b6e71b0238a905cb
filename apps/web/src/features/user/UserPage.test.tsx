import { screen, waitFor, within, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../test/fetchMock';
import { renderWithApp } from '../../../test/render';
import { ownerStation, publicStation } from '../../../test/fixtures/stations';
import { CredentialsDialog } from './components/CredentialsDialog';
import { LOGOUT_EVERYWHERE_TEXTS } from './components/LogoutEverywhere';
import UserPage from './UserPage';

const USER = {
  email: 'owner@example.org',
  emailVal: true,
  acceptedTerms: true,
  newsletterFrequency: 'none',
};

/** Signed in as user 42 with the console's two calls answered, plus `routes`. */
function signedIn(routes: Record<string, Reply> = {}) {
  localStorage.setItem(STORAGE_KEYS.userId, '42');
  localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
  return mockFetch({
    '/v1/user?userId=42': { body: USER },
    '/v1/stations?userId=42': { body: [] },
    ...routes,
  });
}

function renderAt(route: string) {
  return renderWithApp(<UserPage />, { route, path: '/user/:userId' });
}

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('User Console', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the spinner while the user cannot be loaded', async () => {
    mockFetch({ '/v1/stations?userId=42': { body: [] } });
    renderAt('/user/42');
    expect(await screen.findByLabelText('Loading user')).toBeInTheDocument();
    expect(screen.queryByText('CREDENTIALS')).not.toBeInTheDocument();
  });

  it('shows the broker credentials with the session headers and confirms a copy', async () => {
    const calls = signedIn({ '/v1/mqttcred?userId=42': { body: { user: '42', pass: 's3cret' } } });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt('/user/42');
    await userEvent.click(await screen.findByText('CREDENTIALS'));
    expect(await screen.findByText('s3cret')).toBeInTheDocument();
    const credCall = calls.find((c) => c.url.startsWith('/v1/mqttcred'));
    expect((credCall?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
    await userEvent.click(screen.getByRole('button', { name: 'Copy pass' }));
    expect(writeText).toHaveBeenCalledWith('s3cret');
    expect(await screen.findByText('Copied to clipboard!')).toBeInTheDocument();
    await waitFor(
      () => expect(screen.queryByText('Copied to clipboard!')).not.toBeInTheDocument(),
      { timeout: 3000 },
    );
  });

  it('says Could not load when the credentials call fails', async () => {
    signedIn({ '/v1/mqttcred?userId=42': { status: 500, body: { error: 'boom' } } });
    renderAt('/user/42');
    await userEvent.click(await screen.findByText('CREDENTIALS'));
    expect(await screen.findByText('Could not load')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  it("lists the user's station cards with the three console buttons", async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '42');
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
    mockFetch({
      '/v1/user?userId=42': { body: USER },
      '/v1/stations?userId=42': {
        body: [
          {
            name: 'Roof',
            userId: '42',
            location: [40, -3],
            status: 1,
            lastSeen: null,
            lastPacketTime: null,
            version: 2603242,
            satellite: 'Norbi',
            autoTune: 433,
          },
        ],
      },
    });
    renderAt('/user/42');
    expect(await screen.findByRole('link', { name: 'Roof@42' })).toHaveAttribute(
      'href',
      '/station/Roof@42',
    );
    for (const name of ['E-mail', 'CREDENTIALS', 'NEW STATION'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
  });

  it('offers Ground Control on the cards of stations that report a local IP', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '42');
    localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
    const calls = mockFetch({
      '/v1/user?userId=42': { body: USER },
      '/v1/stations?userId=42': { body: [publicStation({ name: 'Roof' })] },
      '/v1/station/Roof@42': { body: ownerStation({ name: 'Roof', local_ip: '192.168.1.20' }) },
    });
    renderAt('/user/42');
    expect(await screen.findByRole('link', { name: 'Ground Control' })).toHaveAttribute(
      'href',
      'http://192.168.1.20',
    );
    const ownerView = calls.find((c) => c.url === '/v1/station/Roof@42');
    expect((ownerView?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
  });

  it('shows Error / Missing Auth without a session and calls nothing', () => {
    const calls = mockFetch({});
    renderWithApp(<CredentialsDialog open onClose={() => undefined} session={null} userId="42" />);
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Missing Auth')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy pass' })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('says Failed to copy! when the clipboard refuses', async () => {
    mockFetch({ '/v1/mqttcred?userId=42': { body: { user: '42', pass: 'pw' } } });
    const writeText = vi.fn(() => Promise.reject(new Error('denied')));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(
      <CredentialsDialog
        open
        onClose={() => undefined}
        session={{ userId: '42', sessionToken: 'tok' }}
        userId="42"
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Copy user' }));
    expect(await screen.findByText('Failed to copy!')).toBeInTheDocument();
  });
  it('logs out everywhere after asking, then forgets the session and goes home', async () => {
    const calls = signedIn({
      '/v1/user/42/logout-all': { body: { message: 'Logged out everywhere' } },
    });
    renderAt('/user/42');
    await userEvent.click(
      await screen.findByRole('button', { name: LOGOUT_EVERYWHERE_TEXTS.button }),
    );
    const warning = screen.getByRole('alert');
    expect(warning).toHaveTextContent(LOGOUT_EVERYWHERE_TEXTS.warning);
    expect(calls.some((c) => c.url.includes('logout-all'))).toBe(false);
    await userEvent.click(
      within(warning).getByRole('button', { name: LOGOUT_EVERYWHERE_TEXTS.button }),
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    const call = calls.find((c) => c.url === '/v1/user/42/logout-all');
    expect(call?.init?.method).toBe('POST');
    expect(call?.init?.headers).toMatchObject({ userId: '42', sessionToken: 'tok' });
    expect(localStorage.getItem(STORAGE_KEYS.sessionToken)).toBeNull();
  });

  it('keeps the session and says so when logging out everywhere fails', async () => {
    signedIn({ '/v1/user/42/logout-all': { status: 500, body: { error: 'boom' } } });
    renderAt('/user/42');
    await userEvent.click(
      await screen.findByRole('button', { name: LOGOUT_EVERYWHERE_TEXTS.button }),
    );
    await userEvent.click(
      within(screen.getByRole('alert')).getByRole('button', {
        name: LOGOUT_EVERYWHERE_TEXTS.button,
      }),
    );
    expect(await screen.findByText(LOGOUT_EVERYWHERE_TEXTS.failed)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.sessionToken)).toBe('tok');
    expect(screen.getByTestId('location')).toHaveTextContent('/user/42');
  });
});
