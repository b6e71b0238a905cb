import { render, screen, within, configure } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { StationOwnerView } from '@tinygs/contracts';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../../test/fetchMock';
import { AppProviders } from '../../../app/AppProviders';
import { ownerStation } from '../stationFixtures';
import { OperateDialog } from './OperateDialog';

const SESSION = { userId: '42', sessionToken: 'tok' };

function renderOperate(over: Partial<StationOwnerView> = {}, putReply?: Reply) {
  const calls = mockFetch(putReply ? { '/v1/station/Roof@42': putReply } : {});
  const onSaved = vi.fn();
  render(
    <AppProviders>
      <OperateDialog
        open
        onClose={() => undefined}
        station={ownerStation(over)}
        session={SESSION}
        onSaved={onSaved}
      />
    </AppProviders>,
  );
  return { calls, onSaved };
}

const saveButton = () => screen.getByRole('button', { name: /^(Save config|Config saved)$/ });

async function chooseAutoTune(user: UserEvent, label: string) {
  await user.click(screen.getByRole('combobox', { name: 'Auto tune' }));
  await user.click(screen.getByRole('option', { name: label }));
}

async function setField(user: UserEvent, label: string, value: string) {
  const input = screen.getByRole('spinbutton', { name: label });
  await user.clear(input);
  if (value) await user.type(input, value);
}

// UI-driven tests are slow on a 2-core machine running test files in parallel.
vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

describe('Operate dialog: tuning', () => {
  it('is at most 1010 px wide and offers the auto-tune options', async () => {
    renderOperate();
    const user = userEvent.setup();
    const dialog = screen.getByRole('dialog', { name: 'Operate Roof' });
    expect(dialog).toHaveStyle({ maxWidth: '1010px' });
    await user.click(screen.getByRole('combobox', { name: 'Auto tune' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Enabled 137',
      'Enabled 433',
      'Enabled 868-915',
      'Enabled 2.4G',
      'Disabled',
    ]);
  });

  it('enables manual tuning only with auto tune Disabled and tracks saved/unsaved', async () => {
    renderOperate();
    const user = userEvent.setup();
    expect(saveButton()).toHaveTextContent('Config saved');
    expect(screen.getByRole('spinbutton', { name: 'Spreading factor' })).toBeDisabled();
    await chooseAutoTune(user, 'Disabled');
    expect(screen.getByRole('spinbutton', { name: 'Spreading factor' })).toBeEnabled();
    expect(saveButton()).toHaveTextContent('Save config');
    expect(screen.getByRole('spinbutton', { name: 'Spreading factor' })).toHaveValue(10);
  });

  it.each([
    ['NORAD', '999', 'NORAD must be between 1000 and 9999999'],
    ['NORAD', '10000000', 'NORAD must be between 1000 and 9999999'],
    ['Spreading factor', '6', 'Spreading factor must be between 7 and 12'],
    ['Spreading factor', '13', 'Spreading factor must be between 7 and 12'],
    ['Bandwidth (kHz)', '600', 'Bandwidth must be between 125 and 500 kHz'],
    ['Bandwidth (kHz)', '130', 'Bandwidth must be a multiple of 125 kHz'],
    ['Coding rate', '9', 'Coding rate must be between 5 and 8'],
    ['Sync word', '65536', 'Sync word must be between 0 and 65535'],
    ['Preamble length', '3', 'Preamble length must be between 4 and 12'],
    ['Preamble length', '13', 'Preamble length must be between 4 and 12'],
    ['Current limit (mA)', '251', 'Current limit must be between 0 and 250'],
    ['Gain', '31', 'Gain must be between 0 and 30'],
    ['TX power (dBm)', '-18', 'TX power must be between -17 and 30'],
    ['TX power (dBm)', '31', 'TX power must be between -17 and 30'],
    ['Frequency (MHz)', '', 'Must be a number'],
  ])('LoRa %s %s -> %s', async (label, value, message) => {
    renderOperate();
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Disabled');
    await setField(user, label, value);
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it.each([
    ['Bitrate (kbps)', '256', 'Bitrate must be between 0 and 255'],
    ['Frequency deviation (kHz)', '256', 'Frequency deviation must be between 0 and 255'],
  ])('FSK %s %s -> %s', async (label, value, message) => {
    renderOperate();
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Disabled');
    await user.click(screen.getByRole('combobox', { name: 'Mode' }));
    await user.click(screen.getByRole('option', { name: 'FSK' }));
    expect(screen.getByRole('combobox', { name: 'Data shaping' })).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton', { name: 'Spreading factor' })).toBeNull();
    await setField(user, label, value);
    expect(screen.getByText(message)).toBeInTheDocument();
  });

  it('sends auto tune 0 with the modem JSON and reads Config saved afterwards', async () => {
    const { calls, onSaved } = renderOperate({}, { body: { message: 'Config saved' } });
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Disabled');
    await setField(user, 'Spreading factor', '11');
    await user.click(screen.getByRole('combobox', { name: 'FLDRO' }));
    await user.click(screen.getByRole('option', { name: 'Auto' }));
    await user.click(saveButton());
    expect(await screen.findByRole('button', { name: 'Config saved' })).toBeDisabled();
    const put = calls.find((c) => c.init?.method === 'PUT');
    const body = JSON.parse(String(put?.init?.body)) as { autoTune: number; modem_conf: string };
    expect(body.autoTune).toBe(0);
    expect(JSON.parse(body.modem_conf)).toEqual({
      mode: 'LoRa',
      sat: 'Norbi',
      NORAD: 46494,
      freq: 436.703,
      bw: 250,
      pl: 8,
      pwr: 5,
      sf: 11,
      cr: 5,
      sw: 18,
      cl: 120,
      gain: 0,
      crc: true,
      fldro: 2,
    });
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ autoTune: 0 }));
  });

  it('sends only the band when auto tune is enabled', async () => {
    const { calls } = renderOperate({}, { body: { message: 'Config saved' } });
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Enabled 137');
    await user.click(saveButton());
    await screen.findByRole('button', { name: 'Config saved' });
    const put = calls.find((c) => c.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({ autoTune: 137 });
  });

  it.each([
    [
      409,
      'It was not possible to communicate with the station. It is no longer online. Please reconnect the station and try again.',
    ],
    [500, 'Error sending your request. Please try again later.'],
  ])('explains a failed save (HTTP %s)', async (status, text) => {
    renderOperate({}, { status, body: { error: 'no' } });
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Enabled 137');
    await user.click(saveButton());
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(saveButton()).toHaveTextContent('Save config');
  });
});

describe('Operate dialog: transmission notice', () => {
  it('explains that the hardware does not allow transmitting', () => {
    renderOperate({ tx: false });
    expect(
      screen.getByText(/Transmission is disabled by the hardware configuration/),
    ).toHaveTextContent(/local dashboard/);
    expect(screen.queryByRole('button', { name: 'Send text' })).toBeNull();
    expect(within(screen.getByRole('dialog')).queryByText('Send test frame')).toBeNull();
  });
});
