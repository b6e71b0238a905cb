import { act, fireEvent, render, screen, configure } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetchMock';
import { AppProviders } from '../../app/AppProviders';
import LoginDialog from './LoginDialog';

const onClose = vi.fn();

function renderDialog() {
  return render(
    <AppProviders>
      <LoginDialog open onClose={onClose} />
    </AppProviders>,
  );
}

/** What the ALTCHA widget announces when its state changes. */
function widgetReports(state: string, payload?: string) {
  const widget = document.querySelector('altcha-widget');
  if (!widget) throw new Error('no bot-check widget');
  act(() => {
    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state, payload } }));
  });
}

const requestButton = () => screen.getByRole('button', { name: /^Request Login/ });

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Request Weblogin dialog', () => {
  beforeEach(() => {
    onClose.mockReset();
    // jsdom is not a secure context; browsers serving the site over HTTPS are.
    vi.stubGlobal('isSecureContext', true);
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => vi.useRealTimers());

  it('explains the bot registration and links to the instructions', () => {
    mockFetch({});
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Request Weblogin' })).toHaveTextContent(
      /registered through the chat bot/,
    );
    expect(screen.getByRole('link', { name: 'registration instructions' })).toHaveAttribute('href');
  });

  it('validates the e-mail and needs a bot-check token before Request Login is enabled', async () => {
    mockFetch({});
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    const field = screen.getByLabelText(/Enter your registered email/);
    await user.type(field, 'someone');
    expect(screen.getByText('Invalid email format')).toBeInTheDocument();
    await user.clear(field);
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await user.type(field, 'someone@example.org');
    expect(screen.queryByText('Invalid email format')).not.toBeInTheDocument();
    expect(requestButton()).toBeDisabled();
    widgetReports('verified', 'token-1');
    expect(requestButton()).toBeEnabled();
    widgetReports('expired');
    expect(screen.getByText('Captcha Expired, please try again')).toBeInTheDocument();
    expect(requestButton()).toBeDisabled();
    widgetReports('verified', 'token-2');
    await user.clear(field);
    expect(requestButton()).toBeDisabled();
  });

  it('shows the widget error text', () => {
    mockFetch({});
    renderDialog();
    widgetReports('error');
    expect(screen.getByText('Captcha Error, please try again')).toBeInTheDocument();
  });

  it('says the service is unavailable when the challenge cannot be fetched', async () => {
    mockFetch({ '/altcha/challenge': { status: 503, body: { error: 'down' } } });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    const checkbox = await screen.findByRole('checkbox');
    await user.click(checkbox);
    expect(await screen.findByText('Captcha service is unavailable')).toBeInTheDocument();
  });

  it('says the service is unavailable where the widget cannot run (no HTTPS)', () => {
    vi.stubGlobal('isSecureContext', false);
    mockFetch({});
    renderDialog();
    expect(screen.getByText('Captcha service is unavailable')).toBeInTheDocument();
  });

  it('sends the request, shows the server message, closes after 2 s and waits 30 s', async () => {
    const calls = mockFetch({ '/weblogin/': { body: { message: 'Check your mailbox.' } } });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const view = renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    widgetReports('verified', 'tok');
    await user.click(requestButton());
    expect(await screen.findByText('Check your mailbox.')).toBeInTheDocument();
    const sent = calls.find((c) => c.url === '/weblogin/');
    expect(sent?.init?.method).toBe('POST');
    expect(JSON.parse(String(sent?.init?.body))).toEqual({
      email: 'me@example.org',
      captcha: 'tok',
    });
    expect(requestButton()).toBeDisabled();
    expect(requestButton()).toHaveTextContent(/Request Login \(30s\)/);
    const expiry = Number(localStorage.getItem(STORAGE_KEYS.loginWaitExpiry));
    expect(expiry - Date.now()).toBeGreaterThan(29_000);
    expect(expiry - Date.now()).toBeLessThanOrEqual(30_000);

    await act(() => vi.advanceTimersByTimeAsync(1_900));
    expect(onClose).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(onClose).toHaveBeenCalledTimes(1);

    // Reopened (or reloaded) during the wait: the countdown continues from the stored expiry.
    view.unmount();
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    widgetReports('verified', 'tok2');
    expect(requestButton()).toBeDisabled();
    expect(requestButton()).toHaveTextContent(/Request Login \(2[78]s\)/);
    await act(() => vi.advanceTimersByTimeAsync(26_000));
    expect(requestButton()).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(2_500));
    expect(requestButton()).toBeEnabled();
    expect(requestButton()).toHaveTextContent(/^Request Login$/);
  });

  it('ignores a stored wait that is not a time or lies beyond 30 s', async () => {
    mockFetch({});
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    localStorage.setItem(STORAGE_KEYS.loginWaitExpiry, String(Date.now() + 3_600_000));
    const view = renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    widgetReports('verified', 'tok');
    expect(requestButton()).toBeEnabled();
    view.unmount();
    localStorage.setItem(STORAGE_KEYS.loginWaitExpiry, 'soon');
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    widgetReports('verified', 'tok');
    expect(requestButton()).toBeEnabled();
  });

  it("shows the server's message on failure and resets the bot check", async () => {
    mockFetch({
      '/weblogin/': {
        status: 429,
        body: { error: 'Please wait 30 seconds and try again.' },
      },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    widgetReports('verified', 'tok');
    await user.click(requestButton());
    expect(await screen.findByText('Please wait 30 seconds and try again.')).toBeInTheDocument();
    // The token was spent: a new bot check is needed before the next request.
    expect(requestButton()).toBeDisabled();
    expect(localStorage.getItem(STORAGE_KEYS.loginWaitExpiry)).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('falls back to the generic text when the answer has no message', async () => {
    mockFetch({ '/weblogin/': { status: 500, body: 'Internal error' } });
    renderDialog();
    fireEvent.change(screen.getByLabelText(/Enter your registered email/), {
      target: { value: 'me@example.org' },
    });
    widgetReports('verified', 'tok');
    fireEvent.click(requestButton());
    expect(
      await screen.findByText('An error occurred, please try again later.'),
    ).toBeInTheDocument();
  });
});
