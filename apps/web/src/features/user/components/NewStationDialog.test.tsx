import { fireEvent, render, screen, within, configure } from '@testing-library/preact';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { STORAGE_KEYS } from '@tinygs/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../../test/fetchMock';
import { advanceTimers, testQueryClient } from '../../../../test/render';
import { AppProviders } from '../../../app/AppProviders';
import { NewStationDialog } from './NewStationDialog';
import { pickedLocationText } from '../lib/newStationForm';

const onCreated = vi.fn();

function renderDialog() {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <AppProviders>
        <MemoryRouter>
          <NewStationDialog open onClose={() => undefined} userId="42" onCreated={onCreated} />
        </MemoryRouter>
      </AppProviders>
    </QueryClientProvider>,
  );
}

const field = (label: RegExp) => screen.getByLabelText(label);
const createButton = () => screen.getByRole('button', { name: 'Create station' });

/** Fills every field with valid values (change events: typing each key is slow on 2 cores). */
async function fillValid(user: UserEvent) {
  const values: [RegExp, string][] = [
    [/Station Name/, 'My_Station1'],
    [/One-time code/, '123456'],
    [/^Latitude/, '40.5'],
    [/^Longitude/, '-3.25'],
    [/^Admin password/, 'secret1'],
    [/Confirm admin password/, 'secret1'],
  ];
  for (const [label, value] of values) fireEvent.change(field(label), { target: { value } });
  const zone = screen.getByRole('combobox', { name: /Time Zone/ });
  await user.clear(zone);
  await user.type(zone, 'Madr');
  await user.click(await screen.findByRole('option', { name: 'Europe/Madrid' }));
}

function login() {
  localStorage.setItem(STORAGE_KEYS.userId, '42');
  localStorage.setItem(STORAGE_KEYS.sessionToken, 'tok');
}

// Dialogs with many fields and MUI transitions are slow to drive on a 2-core machine.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('New station dialog: validation', () => {
  beforeEach(() => {
    login();
    mockFetch({});
  });

  it.each([
    ['', 'Station Name is required'],
    ['abc', 'Station Name must be more than 3 characters'],
    ['a'.repeat(25), 'Station Name must be less than 25 characters'],
    ['bad name!', 'Allowed characters: A-Z, a-z, 0-9, _'],
  ])('station name %j -> %s', async (value, message) => {
    const user = userEvent.setup();
    renderDialog();
    const input = field(/Station Name/);
    await user.type(input, value || 'x');
    if (!value) await user.clear(input);
    expect(screen.getByText(message)).toBeInTheDocument();
  });

  it.each([
    ['', 'OTP is required'],
    ['12a45', 'OTP must be a 6-digit number'],
    ['12345', 'OTP must be a 6-digit number'],
  ])('OTP %j -> %s', async (value, message) => {
    const user = userEvent.setup();
    renderDialog();
    const input = field(/One-time code/);
    await user.type(input, value || '1');
    if (!value) await user.clear(input);
    expect(screen.getByText(message)).toBeInTheDocument();
  });

  it('limits the OTP to 6 characters', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(field(/One-time code/), '12345678');
    expect(field(/One-time code/)).toHaveValue('123456');
  });

  it('checks latitude and longitude', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(field(/^Latitude/), 'north');
    expect(screen.getByText('Must be a number')).toBeInTheDocument();
    await user.clear(field(/^Latitude/));
    await user.type(field(/^Latitude/), '91');
    expect(screen.getByText('Latitude must be between -90 and 90')).toBeInTheDocument();
    await user.type(field(/^Longitude/), '-180.5');
    expect(screen.getByText('Longitude must be between -180 and 180')).toBeInTheDocument();
  });

  it('checks the admin password and its confirmation', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(field(/^Admin password/), '12345');
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    await user.type(field(/Confirm admin password/), '123456');
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
    await user.type(field(/^Admin password/), '6');
    expect(screen.queryByText('Passwords must match')).not.toBeInTheDocument();
  });

  it('needs a time zone and enables Create only for a valid form', async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(createButton()).toBeDisabled();
    await fillValid(user);
    expect(createButton()).toBeEnabled();
    await user.clear(screen.getByRole('combobox', { name: /Time Zone/ }));
    await user.tab();
    expect(screen.getByText('Time Zone is required')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
  });

  it('rounds a picked map point to 3 decimals and folds the longitude into -180..180', () => {
    expect(pickedLocationText(40.42949, 183.12345)).toEqual({ lat: '40.429', lng: '-176.877' });
    expect(pickedLocationText(-33.8688, -151.2093)).toEqual({ lat: '-33.869', lng: '-151.209' });
  });
});

describe('New station dialog: creation', () => {
  beforeEach(() => {
    onCreated.mockReset();
    login();
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => vi.useRealTimers());

  function statusReplies(...answers: Reply[]): Reply {
    let i = 0;
    return () => answers[Math.min(i++, answers.length - 1)] as Reply;
  }

  it('sends the form with the POSIX zone, then polls every 20 s until success', async () => {
    const calls = mockFetch({
      '/v1/otp?userId=42': { body: { status: 'pending', text: 'Waiting for the station.' } },
      '/v1/station_created': statusReplies(
        { body: { status: 'pending', text: 'Still waiting.' } },
        { body: { status: 'success', text: 'Station created!' } },
      ),
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    await user.click(createButton());
    expect(await screen.findByText(/Waiting for the station/)).toBeInTheDocument();
    const post = calls.find((c) => c.url === '/v1/otp?userId=42');
    expect(JSON.parse(String(post?.init?.body))).toEqual({
      otp: 123456,
      station_name: 'My_Station1',
      location: [40.5, -3.25],
      admin_pw: 'secret1',
      tz: 'CET-1CEST,M3.5.0,M10.5.0/3',
    });
    expect((post?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
    const polls = () => calls.filter((c) => c.url === '/v1/station_created').length;

    await advanceTimers(19_000);
    expect(polls()).toBe(0);
    await advanceTimers(1_100);
    expect(polls()).toBe(1);
    expect(await screen.findByText(/Still waiting\./)).toBeInTheDocument();
    await advanceTimers(20_000);
    expect(polls()).toBe(2);
    expect(await screen.findByText('Station created!')).toBeInTheDocument();
    expect(onCreated).toHaveBeenCalledTimes(1);
    await advanceTimers(60_000);
    expect(polls()).toBe(2);
  });

  it('ends in error when the server reports one', async () => {
    mockFetch({
      '/v1/otp?userId=42': { body: { status: 'pending', text: '' } },
      '/v1/station_created': { body: { status: 'error', text: 'The station never came.' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    await user.click(createButton());
    // The checks start once the dialog shows the pending start.
    await screen.findByText(/Waiting for the station/);
    await advanceTimers(20_100);
    expect(await screen.findByText('The station never came.')).toBeInTheDocument();
  });

  it('reports a failed status check', async () => {
    mockFetch({
      '/v1/otp?userId=42': { body: { status: 'pending', text: '' } },
      '/v1/station_created': { status: 500, body: { error: 'boom' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    await user.click(createButton());
    // The checks start once the dialog shows the pending start.
    await screen.findByText(/Waiting for the station/);
    await advanceTimers(20_100);
    expect(
      await screen.findByText(
        'Error while checking station status. Creation may have failed or been interrupted.',
      ),
    ).toBeInTheDocument();
  });

  it('stops when the session disappears while polling', async () => {
    const calls = mockFetch({
      '/v1/otp?userId=42': { body: { status: 'pending', text: '' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    await user.click(createButton());
    await screen.findByText(/Waiting for the station/);
    localStorage.removeItem(STORAGE_KEYS.sessionToken);
    await advanceTimers(20_100);
    expect(
      await screen.findByText('Authentication details missing. Cannot check status.'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/v1/station_created')).toBe(false);
  });

  it('can be cancelled, stops polling and can be retried', async () => {
    const calls = mockFetch({
      '/v1/otp?userId=42': { body: { status: 'pending', text: '' } },
      '/v1/station_created': { body: { status: 'pending', text: '' } },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    await user.click(createButton());
    const progress = await screen.findByText(/Waiting for the station/);
    await user.click(within(progress.closest('[role="alert"]') as HTMLElement).getByText('Cancel'));
    expect(
      screen.getByText('Creation process cancelled. You can amend the information and try again.'),
    ).toBeInTheDocument();
    await advanceTimers(60_000);
    expect(calls.some((c) => c.url === '/v1/station_created')).toBe(false);
    expect(createButton()).toBeEnabled();
  });

  it.each([
    [
      { status: 409, body: { error: 'This one-time code is already in use.' } },
      'Failed to initiate: This one-time code is already in use.',
    ],
    [{ status: 502, body: 'Bad gateway' }, 'Failed to initiate: Bad gateway'],
    [
      { status: 500, body: '' },
      'Failed to initiate: An unexpected error occurred during initiation.',
    ],
  ])('shows why the start failed (%j)', async (reply, text) => {
    mockFetch({ '/v1/otp?userId=42': reply });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    await user.click(createButton());
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('asks to log in when there is no session', async () => {
    const calls = mockFetch({});
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderDialog();
    await fillValid(user);
    localStorage.clear();
    await user.click(createButton());
    expect(await screen.findByText('User not authenticated. Please log in.')).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/v1/otp'))).toBe(false);
  });
});
