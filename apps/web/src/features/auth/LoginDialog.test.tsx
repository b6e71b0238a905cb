import { fireEvent, render, screen, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { createChallenge } from 'altcha/lib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetchMock';
import { AppProviders } from '../../app/AppProviders';
import LoginDialog from './LoginDialog';
import { deriveKey } from './lib/proofOfWork';
import { advanceTimers } from '../../../test/render';

const onClose = vi.fn();

function renderDialog() {
  return render(
    <AppProviders>
      <LoginDialog open onClose={onClose} />
    </AppProviders>,
  );
}

/** A challenge as the server makes it: the answer's counter is known, the work is real. */
async function serverChallenge(counter = 300, expiresAt = new Date(Date.now() + 600_000)) {
  return createChallenge({ algorithm: 'SHA-256', cost: 1, counter, deriveKey, expiresAt });
}

interface SentPayload {
  challenge: { parameters: { nonce: string } };
  solution: { counter: number; derivedKey: string };
}

/** Ticks the bot check and waits until the proof of work is done. */
async function passBotCheck(user: { click(el: Element): Promise<void> }) {
  await user.click(screen.getByRole('checkbox', { name: "I'm not a robot" }));
  await screen.findByRole('checkbox', { name: 'Verified' });
}

const requestButton = () => screen.getByRole('button', { name: /^Request Login/ });

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Request Weblogin dialog', () => {
  beforeEach(() => {
    onClose.mockReset();
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
    // Expires 60 s after it was made, so the test can watch it expire.
    const challenges = [
      await serverChallenge(300, new Date(Date.now() + 60_000)),
      await serverChallenge(400),
    ];
    mockFetch({ '/altcha/challenge': () => ({ body: challenges.shift() }) });
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
    await passBotCheck(user);
    expect(requestButton()).toBeEnabled();
    await advanceTimers(61_000);
    expect(screen.getByText('Captcha Expired, please try again')).toBeInTheDocument();
    expect(requestButton()).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: "I'm not a robot" })).not.toBeChecked();
    await passBotCheck(user);
    await user.clear(field);
    expect(requestButton()).toBeDisabled();
  });

  it('shows the bot-check error text when the challenge cannot be solved', async () => {
    const broken = await serverChallenge();
    broken.parameters.nonce = 'abc';
    mockFetch({ '/altcha/challenge': { body: broken } });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await user.click(screen.getByRole('checkbox', { name: "I'm not a robot" }));
    expect(await screen.findByText('Captcha Error, please try again')).toBeInTheDocument();
  });

  it('says the service is unavailable when the challenge cannot be fetched', async () => {
    mockFetch({ '/altcha/challenge': { status: 503, body: { error: 'down' } } });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await user.click(screen.getByRole('checkbox', { name: "I'm not a robot" }));
    expect(await screen.findByText('Captcha service is unavailable')).toBeInTheDocument();
    expect(requestButton()).toBeDisabled();
  });

  it('solves the proof of work without Web Crypto, as over plain HTTP', async () => {
    const challenge = await serverChallenge(4321);
    const calls = mockFetch({
      '/altcha/challenge': { body: challenge },
      '/weblogin/': { body: { message: 'Check your mailbox.' } },
    });
    // What a browser offers a page reached over http://some-lan-name: no crypto.subtle.
    vi.stubGlobal('isSecureContext', false);
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    await passBotCheck(user);
    await user.click(requestButton());
    await screen.findByText('Check your mailbox.');
    const sent = calls.find((c) => c.url === '/weblogin/');
    const { captcha } = JSON.parse(String(sent?.init?.body)) as { captcha: string };
    const payload = JSON.parse(atob(captcha)) as SentPayload;
    expect(payload.challenge.parameters.nonce).toBe(challenge.parameters.nonce);
    expect(payload.solution.counter).toBe(4321);
  });

  it('sends the request, shows the server message, closes after 2 s and waits 30 s', async () => {
    const calls = mockFetch({
      '/altcha/challenge': { body: await serverChallenge() },
      '/weblogin/': { body: { message: 'Check your mailbox.' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const view = renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    await passBotCheck(user);
    await user.click(requestButton());
    expect(await screen.findByText('Check your mailbox.')).toBeInTheDocument();
    const sent = calls.find((c) => c.url === '/weblogin/');
    expect(sent?.init?.method).toBe('POST');
    expect(JSON.parse(String(sent?.init?.body))).toEqual({
      email: 'me@example.org',
      captcha: expect.any(String),
    });
    expect(requestButton()).toBeDisabled();
    expect(requestButton()).toHaveTextContent(/Request Login \(30s\)/);
    const expiry = Number(localStorage.getItem(STORAGE_KEYS.loginWaitExpiry));
    expect(expiry - Date.now()).toBeGreaterThan(29_000);
    expect(expiry - Date.now()).toBeLessThanOrEqual(30_000);

    await advanceTimers(1_900);
    expect(onClose).not.toHaveBeenCalled();
    await advanceTimers(200);
    expect(onClose).toHaveBeenCalledTimes(1);

    // Reopened (or reloaded) during the wait: the countdown continues from the stored expiry.
    view.unmount();
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    await passBotCheck(user);
    expect(requestButton()).toBeDisabled();
    expect(requestButton()).toHaveTextContent(/Request Login \(2[78]s\)/);
    await advanceTimers(26_000);
    expect(requestButton()).toBeDisabled();
    await advanceTimers(2_500);
    expect(requestButton()).toBeEnabled();
    expect(requestButton()).toHaveTextContent(/^Request Login$/);
  });

  it('ignores a stored wait that is not a time or lies beyond 30 s', async () => {
    mockFetch({ '/altcha/challenge': { body: await serverChallenge() } });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    localStorage.setItem(STORAGE_KEYS.loginWaitExpiry, String(Date.now() + 3_600_000));
    const view = renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    await passBotCheck(user);
    expect(requestButton()).toBeEnabled();
    view.unmount();
    localStorage.setItem(STORAGE_KEYS.loginWaitExpiry, 'soon');
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    await passBotCheck(user);
    expect(requestButton()).toBeEnabled();
  });

  it("shows the server's message on failure and resets the bot check", async () => {
    mockFetch({
      '/altcha/challenge': { body: await serverChallenge() },
      '/weblogin/': {
        status: 429,
        body: { error: 'Please wait 30 seconds and try again.' },
      },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await user.type(screen.getByLabelText(/Enter your registered email/), 'me@example.org');
    await passBotCheck(user);
    await user.click(requestButton());
    expect(await screen.findByText('Please wait 30 seconds and try again.')).toBeInTheDocument();
    // The token was spent: a new bot check is needed before the next request.
    expect(requestButton()).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: "I'm not a robot" })).not.toBeChecked();
    expect(localStorage.getItem(STORAGE_KEYS.loginWaitExpiry)).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('falls back to the generic text when the answer has no message', async () => {
    mockFetch({
      '/altcha/challenge': { body: await serverChallenge() },
      '/weblogin/': { status: 500, body: 'Internal error' },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    fireEvent.change(screen.getByLabelText(/Enter your registered email/), {
      target: { value: 'me@example.org' },
    });
    await passBotCheck(user);
    fireEvent.click(requestButton());
    expect(
      await screen.findByText('An error occurred, please try again later.'),
    ).toBeInTheDocument();
  });
});
