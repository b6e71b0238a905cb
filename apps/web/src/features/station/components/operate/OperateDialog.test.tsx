import { render, screen, within, configure } from '@testing-library/preact';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { STORAGE_KEYS, type StationOwnerView } from '@tinygs/contracts';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, type Reply } from '../../../../../test/fetchMock';
import { buildSatellite } from '../../../../../test/fixtures/satellites';
import { testQueryClient } from '../../../../../test/render';
import { AppProviders } from '../../../../app/AppProviders';
import { ownerStation } from '../../../../../test/fixtures/stations';
import { OperateDialog } from './OperateDialog';

const SESSION = { userId: '42', sessionToken: 'tok' };

const SUPPORTED = [
  buildSatellite({
    name: 'Norbi',
    displayName: 'Norby',
    configurations: [{ mode: 'LoRa', freq: 436.703, sf: 10, bw: 250, sat: 'Norbi', NORAD: 46494 }],
  }),
  buildSatellite({
    name: 'Sorrel-2A',
    displayName: 'Sorrel 2A',
    configurations: [
      {
        mode: 'FSK',
        freq: 437.425,
        br: 19.2,
        fd: 9.6,
        fsw: [147, 11, 81, 222],
        ook: 2,
        len: 96,
        pl: 32,
        pwr: 5,
        sat: 'Sorrel-2A',
        NORAD: 98107,
      },
      { mode: 'LoRa', freq: 436.1, sf: 9 },
    ],
  }),
];
const BALLOONS = [
  buildSatellite({
    name: 'Thistledown-5',
    status: 'Balloon',
    configurations: [
      { mode: 'LoRa', freq: 434.5, bw: 125, sf: 9, cr: 5, sw: 18, pl: 8, NORAD: 99812 },
    ],
  }),
];

function renderOperate(over: Partial<StationOwnerView> = {}, putReply?: Reply) {
  const calls = mockFetch({
    '/v1/satellites/?status=Supported': { body: SUPPORTED },
    '/v1/satellites/?status=Balloon': { body: BALLOONS },
    ...(putReply ? { '/v1/station/Roof@42': putReply } : {}),
  });
  const onSaved = vi.fn();
  render(
    <QueryClientProvider client={testQueryClient()}>
      <AppProviders>
        <OperateDialog
          open
          onClose={() => undefined}
          station={ownerStation(over)}
          session={SESSION}
          onSaved={onSaved}
        />
      </AppProviders>
    </QueryClientProvider>,
  );
  return { calls, onSaved };
}

function putBody(calls: ReturnType<typeof mockFetch>) {
  const put = calls.find((c) => c.init?.method === 'PUT');
  return JSON.parse(String(put?.init?.body)) as { autoTune: number; modem_conf: string };
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
    expect(putBody(calls)).toEqual({ autoTune: 137 });
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

describe('Operate dialog: satellite picker', () => {
  it('offers the Supported satellites and the balloons, searchable, with LoRa/FSK shown', async () => {
    const { calls } = renderOperate();
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Disabled');
    const picker = screen.getByRole('combobox', { name: 'Satellite' });
    expect(calls.map((c) => c.url)).toEqual(
      expect.arrayContaining([
        '/v1/satellites/?status=Supported',
        '/v1/satellites/?status=Balloon',
      ]),
    );
    await user.clear(picker);
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('option', { name: /Thistledown-5/ });
    expect(screen.getByRole('listbox')).toHaveTextContent(/^Satellites.*Balloons/);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Norby (Norbi)LoRa 436.703 MHz',
      'Sorrel 2A (Sorrel-2A)FSK 437.425 MHz, LoRa 436.1 MHz',
      'Thistledown-5LoRa 434.5 MHz',
    ]);
    // Typed into the open list (the field has the focus): a click first would close the list.
    await user.type(picker, 'sorrel', { skipClick: true });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Sorrel 2A (Sorrel-2A)FSK 437.425 MHz, LoRa 436.1 MHz',
    ]);
  });

  it('fills the modem fields from the first configuration, keeps each field editable, and remembers the choice', async () => {
    const { calls } = renderOperate({}, { body: { message: 'Config saved' } });
    const user = userEvent.setup();
    await chooseAutoTune(user, 'Disabled');
    const picker = screen.getByRole('combobox', { name: 'Satellite' });
    await user.clear(picker);
    await user.type(picker, 'Sorrel');
    await user.click(await screen.findByRole('option', { name: /Sorrel 2A/ }));
    expect(picker).toHaveValue('Sorrel-2A');
    expect(screen.getByRole('combobox', { name: 'Mode' })).toHaveTextContent('FSK');
    expect(screen.getByRole('spinbutton', { name: 'Frequency (MHz)' })).toHaveValue(437.425);
    expect(screen.getByRole('spinbutton', { name: 'Bitrate (kbps)' })).toHaveValue(19.2);
    expect(screen.getByRole('spinbutton', { name: 'NORAD' })).toHaveValue(98107);
    expect(window.localStorage.getItem(STORAGE_KEYS.satelliteSelection)).toBe('Sorrel-2A');
    await setField(user, 'Frequency deviation (kHz)', '10');
    await user.click(saveButton());
    await screen.findByRole('button', { name: 'Config saved' });
    expect(JSON.parse(putBody(calls).modem_conf)).toEqual({
      mode: 'FSK',
      sat: 'Sorrel-2A',
      NORAD: 98107,
      freq: 437.425,
      pl: 32,
      pwr: 5,
      br: 19.2,
      fd: 10,
      ook: 2,
      fsw: [147, 11, 81, 222],
      len: 96,
    });
  });

  it('starts a station without a tuning of its own from the satellite chosen last time', async () => {
    window.localStorage.setItem(STORAGE_KEYS.satelliteSelection, 'Thistledown-5');
    renderOperate({ modem_conf: undefined, satellite: null });
    const picker = screen.getByRole('combobox', { name: 'Satellite' });
    expect(await screen.findByDisplayValue('Thistledown-5')).toBe(picker);
    expect(screen.getByRole('spinbutton', { name: 'Frequency (MHz)' })).toHaveValue(434.5);
    expect(screen.getByRole('spinbutton', { name: 'Spreading factor' })).toHaveValue(9);
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
