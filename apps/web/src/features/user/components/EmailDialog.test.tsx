import { act, screen, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../../test/fetchMock';
import { advanceTimers, renderWithApp } from '../../../../test/render';
import { pendingEmailText } from './EmailDialog';
import { offlineAlertsHelp } from './OfflineAlertsField';
import UserPage from '../UserPage';

const USER = {
  email: 'owner@example.org',
  emailVal: true,
  acceptedTerms: true,
  newsletterFrequency: 'weekly',
};
const NEW_USER = { email: '', emailVal: false, acceptedTerms: false, newsletterFrequency: 'none' };

function setup(user: object, save?: Reply) {
  localStorage.setItem(STORAGE_KEYS.userId, '42');
  localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
  const calls = mockFetch({
    '/v1/user?userId=42': { body: user },
    '/v1/stations?userId=42': { body: [] },
    ...(save ? { '/v1/user/42': save } : {}),
  });
  const view = renderWithApp(<UserPage />, { route: '/user/42', path: '/user/:userId' });
  return { calls, view };
}

const emailField = () => screen.getByRole('textbox', { name: /E-mail/ });
const saveButton = () => screen.getByRole('button', { name: /^Save/ });

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('E-mail preferences', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('validates the address', async () => {
    setup(USER);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    expect(emailField()).toHaveValue('owner@example.org');
    expect(saveButton()).toBeEnabled();
    await user.clear(emailField());
    expect(screen.getByText('E-mail is required')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await user.type(emailField(), 'owner@example');
    expect(screen.getByText('E-mail must be valid')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('needs the terms accepted unless they already are, and warns about validation', async () => {
    setup({ ...NEW_USER, acceptedTerms: false });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    await user.type(emailField(), 'me@example.org');
    expect(screen.getByText('You must accept the terms and conditions.')).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /I accept the/ }));
    expect(screen.queryByText('You must accept the terms and conditions.')).toBeNull();
    expect(saveButton()).toBeEnabled();
    expect(screen.queryByText('Please check your mailbox and validate the email.')).toBeNull();
  });

  it('shows the validation warning when terms are accepted but the e-mail is not validated', async () => {
    setup({ ...USER, emailVal: false });
    expect(
      await screen.findByText('Please check your mailbox and validate the email.'),
    ).toBeInTheDocument();
  });

  it('saves without tags, confirms, then locks Save for 60 s and stores the expiry after 5 s', async () => {
    const saved = { ...NEW_USER, email: 'me@example.org', acceptedTerms: true };
    const { calls } = setup(NEW_USER, { body: saved });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    await user.type(emailField(), '<b>me@example.org</b>');
    await user.click(screen.getByRole('checkbox', { name: /I accept the/ }));
    await user.click(screen.getByRole('combobox', { name: /Newsletter frequency/ }));
    await user.click(screen.getByRole('option', { name: 'Daily' }));
    await user.click(saveButton());
    expect(await screen.findByText('Config saved!')).toBeInTheDocument();
    const put = calls.find((c) => c.url === '/v1/user/42');
    expect(put?.init?.method).toBe('PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({
      email: 'me@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'daily',
    });
    expect(saveButton()).toBeDisabled();
    expect(saveButton()).toHaveTextContent('Save (60s)');
    // The banner follows the saved user: terms now accepted, e-mail not yet validated.
    expect(
      await screen.findByText('Please check your mailbox and validate the email.'),
    ).toBeVisible();

    await advanceTimers(4_000);
    expect(localStorage.getItem(STORAGE_KEYS.emailCooldownExpiry)).toBeNull();
    await advanceTimers(1_100);
    const stored = Number(localStorage.getItem(STORAGE_KEYS.emailCooldownExpiry));
    expect(stored - Date.now()).toBeGreaterThan(53_000);
    expect(stored - Date.now()).toBeLessThanOrEqual(55_000);

    await advanceTimers(53_000);
    expect(saveButton()).toBeDisabled();
    await advanceTimers(2_000);
    expect(saveButton()).toBeEnabled();
    expect(saveButton()).toHaveTextContent(/^Save$/);
  });

  it('writes a pending cool-down at once when the page goes away', async () => {
    const { view } = setup(USER, { body: USER });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    await user.click(saveButton());
    await screen.findByText('Config saved!');
    expect(localStorage.getItem(STORAGE_KEYS.emailCooldownExpiry)).toBeNull();
    act(() => {
      view.unmount();
    });
    expect(Number(localStorage.getItem(STORAGE_KEYS.emailCooldownExpiry))).toBeGreaterThan(
      Date.now() + 59_000,
    );
  });

  it('restores a stored cool-down after a reload', async () => {
    localStorage.setItem(STORAGE_KEYS.emailCooldownExpiry, String(Date.now() + 42_000));
    setup(USER);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    expect(saveButton()).toBeDisabled();
    expect(saveButton()).toHaveTextContent(/Save \(4[12]s\)/);
  });

  it.each([
    ['not a time', 'tomorrow'],
    ['more than 24 h ahead', String(Date.now() + 25 * 3_600_000)],
    ['in the past', String(Date.now() - 1_000)],
  ])('ignores a stored cool-down that is %s', async (_label, value) => {
    localStorage.setItem(STORAGE_KEYS.emailCooldownExpiry, value);
    setup(USER);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    expect(saveButton()).toBeEnabled();
    expect(saveButton()).toHaveTextContent(/^Save$/);
  });

  it('keeps Save usable after a failed save', async () => {
    setup(USER, { status: 500, body: { error: 'db down' } });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    await user.click(saveButton());
    expect(await screen.findByText(/could not be saved/)).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
  });
  it('says that a new address waits for its link, in the dialog and on the console', async () => {
    const saved = { ...USER, pendingEmail: 'new@example.org' };
    setup(USER, { body: saved });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    await user.clear(emailField());
    await user.type(emailField(), 'new@example.org');
    await user.click(saveButton());
    expect(await screen.findByText('Config saved!')).toBeInTheDocument();
    const note = pendingEmailText(saved);
    expect(note).toContain('owner@example.org');
    // In the dialog and, once the saved user is in the cache, on the console behind it.
    await vi.waitFor(() => expect(screen.getAllByText(note)).toHaveLength(2));
    expect(emailField()).toHaveValue('new@example.org');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByText(note)).toBeVisible();
  });

  it('switches offline alerts on with the chosen delay and saves them with the preferences', async () => {
    const withAlerts = {
      ...USER,
      offlineAlerts: { enabled: false, delayMinutes: 120, viaBot: true },
    };
    const saved = {
      ...USER,
      offlineAlerts: { enabled: true, delayMinutes: 1440, viaBot: true },
    };
    const { calls } = setup(withAlerts, { body: saved });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    expect(screen.getByText(offlineAlertsHelp(true))).toBeInTheDocument();
    const delay = () => screen.getByRole('combobox', { name: /offline for/ });
    expect(delay()).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('switch', { name: 'Offline alerts' }));
    await user.click(delay());
    await user.click(screen.getByRole('option', { name: '1 day' }));
    await user.click(saveButton());
    expect(await screen.findByText('Config saved!')).toBeInTheDocument();
    const put = calls.find((c) => c.url === '/v1/user/42');
    expect(JSON.parse(String(put?.init?.body))).toEqual({
      email: 'owner@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'weekly',
      offlineAlerts: { enabled: true, delayMinutes: 1440 },
    });
    expect(screen.getByRole('switch', { name: 'Offline alerts' })).toBeChecked();
  });
});
