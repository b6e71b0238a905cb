import { render, screen, configure } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../../../test/fetchMock';
import { AppProviders } from '../../../../app/AppProviders';
import { TxPanel } from './TxPanel';
import { advanceTimers } from '../../../../../test/render';

const OK: Reply = { body: { message: 'Sent' } };

function renderTx(replies: Record<string, Reply> = {}) {
  const calls = mockFetch({
    '/v2/station/Roof@42/tx': OK,
    '/v1/station/Roof@42/test': { body: { message: 'Test frame sent' } },
    ...replies,
  });
  render(
    <AppProviders>
      <TxPanel stationId="Roof@42" session={{ userId: '42', sessionToken: 'tok' }} txAllowed />
    </AppProviders>,
  );
  return calls;
}

const button = (name: string) => screen.getByRole('button', { name });
const base64Field = () => screen.getByRole('textbox', { name: 'Binary payload (base64)' });
const hexField = () => screen.getByRole('textbox', { name: 'Binary payload (hex)' });
const sentBodies = (calls: ReturnType<typeof mockFetch>) =>
  calls
    .filter((c) => c.url === '/v2/station/Roof@42/tx')
    .map((c) => JSON.parse(String(c.init?.body)) as { tx: string });

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Transmission', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('rejects an empty text payload', async () => {
    const calls = renderTx();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(button('Send text'));
    expect(screen.getByText('You cannot send an empty payload!')).toBeInTheDocument();
    expect(sentBodies(calls)).toHaveLength(0);
  });

  it('accepts at most 25 characters and only 8-bit ASCII', async () => {
    const calls = renderTx();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const field = screen.getByRole('textbox', { name: 'Text payload' });
    await user.type(field, 'x'.repeat(30));
    expect(field).toHaveValue('x'.repeat(25));
    await user.clear(field);
    await user.type(field, 'price 5€');
    await user.click(button('Send text'));
    expect(screen.getByText('Only 8-bit ASCII characters can be sent')).toBeInTheDocument();
    expect(sentBodies(calls)).toHaveLength(0);
  });

  it('sends text as 8-bit bytes in base64 and locks the buttons for 1 s', async () => {
    const calls = renderTx();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByRole('textbox', { name: 'Text payload' }), 'Hi é');
    await user.click(button('Send text'));
    // 'H' 'i' ' ' 0xE9
    expect(sentBodies(calls)).toEqual([{ tx: 'SGkg6Q==' }]);
    const sent = calls.find((c) => c.url === '/v2/station/Roof@42/tx');
    expect((sent?.init?.headers as Record<string, string>).sessionToken).toBe('tok');
    expect(button('Send text')).toBeDisabled();
    expect(button('Send binary')).toBeDisabled();
    expect(button('Send test frame')).toBeDisabled();
    await advanceTimers(900);
    expect(button('Send text')).toBeDisabled();
    await advanceTimers(200);
    expect(button('Send text')).toBeEnabled();
  });

  it('keeps base64 and hex in sync and names the invalid one', async () => {
    renderTx();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(base64Field(), 'AQID');
    expect(hexField()).toHaveValue('010203');
    await user.clear(hexField());
    await user.type(hexField(), 'ff 00 7f');
    expect(base64Field()).toHaveValue('/wB/');
    await user.type(hexField(), 'z');
    expect(screen.getByText('Invalid hex string')).toBeInTheDocument();
    expect(base64Field()).toHaveValue('/wB/');
    await user.clear(base64Field());
    await user.type(base64Field(), 'AQI');
    expect(screen.getByText('Invalid base64 string')).toBeInTheDocument();
    await user.type(base64Field(), '=');
    expect(screen.queryByText('Invalid base64 string')).toBeNull();
    expect(hexField()).toHaveValue('0102');
    expect(screen.queryByText('Invalid hex string')).toBeNull();
  });

  it('sends the binary payload, rejects an empty one', async () => {
    const calls = renderTx();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(button('Send binary'));
    expect(screen.getByText('You cannot send an empty payload!')).toBeInTheDocument();
    await user.type(hexField(), 'cafe');
    await user.click(button('Send binary'));
    expect(sentBodies(calls)).toEqual([{ tx: 'yv4=' }]);
  });

  it('sends a test frame with an empty body and locks the buttons for 20 s', async () => {
    const calls = renderTx();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(button('Send test frame'));
    const test = calls.find((c) => c.url === '/v1/station/Roof@42/test');
    expect(test?.init?.method).toBe('POST');
    expect(test?.init?.body).toBeUndefined();
    expect(button('Send test frame')).toBeDisabled();
    expect(button('Send text')).toBeDisabled();
    await advanceTimers(19_500);
    expect(button('Send test frame')).toBeDisabled();
    await advanceTimers(600);
    expect(button('Send test frame')).toBeEnabled();
  });

  it('ignores a failed transmission apart from logging it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderTx({ '/v2/station/Roof@42/tx': { status: 409, body: { error: 'offline' } } });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByRole('textbox', { name: 'Text payload' }), 'ping');
    await user.click(button('Send text'));
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/offline/)).toBeNull();
  });
});
