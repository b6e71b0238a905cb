import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import PacketsPage from '../src/features/packets/PacketsPage';
import PacketRoute, { PACKET_LOAD_ERROR } from '../src/app/routes/PacketRoute';
import { UNRECOGNIZED_PACKET } from '../src/features/telemetry';
import { mockFetch } from './fetchMock';
import { renderWithApp } from './render';
import { CRC_PACKET, FSK_PACKET, LORA_PACKET, packetDetail } from './fixtures/packets';

function factValue(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

describe('packets page', () => {
  it('lists the latest packets with links to their pages', async () => {
    mockFetch({ '/v2/packets': { body: { packets: [LORA_PACKET, FSK_PACKET], templates: {} } } });
    renderWithApp(<PacketsPage />);
    const table = await screen.findByRole('table', { name: 'Packets' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('FSK@436.9')).toBeInTheDocument();
    expect(within(table).getAllByRole('link')[0]).toHaveAttribute(
      'href',
      `/packet/${LORA_PACKET.id}`,
    );
  });

  it('groups packets by transmit power', async () => {
    const user = userEvent.setup();
    mockFetch({
      '/v2/packets': { body: { packets: [LORA_PACKET, FSK_PACKET, CRC_PACKET], templates: {} } },
    });
    renderWithApp(<PacketsPage />);
    await screen.findByRole('table', { name: 'Packets' });
    await user.click(screen.getByRole('button', { name: '1001-2000 mW (1)' }));
    const table = screen.getByRole('table', { name: 'Packets' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByText('FSK@436.9')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'CRC error (1)' }));
    expect(within(screen.getByRole('table')).getByText('CRC ERROR')).toBeInTheDocument();
  });

  it('says No packets yet. when the list is empty', async () => {
    mockFetch({ '/v2/packets': { body: { packets: [], templates: {} } } });
    renderWithApp(<PacketsPage />);
    expect(await screen.findByText('No packets yet.')).toBeInTheDocument();
  });

  it('says No packets yet. when the request fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ '/v2/packets': { status: 500, body: { error: 'boom' } } });
    renderWithApp(<PacketsPage />);
    expect(await screen.findByText('No packets yet.')).toBeInTheDocument();
  });
});

describe('packet page', () => {
  function renderPacket(id: string, inactive = false) {
    const prefix = inactive ? 'packetIna' : 'packet';
    return renderWithApp(<PacketRoute inactive={inactive} />, {
      route: `/${prefix}/${id}`,
      path: `/${prefix}/:id`,
    });
  }

  it('shows LoRa radio parameters, eclipse, telemetry and receiving stations', async () => {
    mockFetch({ [`/v1/packet/${LORA_PACKET.id}`]: { body: packetDetail() } });
    renderPacket(LORA_PACKET.id);
    expect(await screen.findByRole('heading', { name: 'SATLLA-2B packet' })).toBeInTheDocument();
    expect(factValue('Frequency')).toBe('437.250 MHz');
    expect(factValue('Spreading factor')).toBe('SF10');
    expect(factValue('Coding rate')).toBe('4/5');
    expect(factValue('Bandwidth')).toBe('62.5 kHz');
    expect(factValue('Eclipse')).toBe('In eclipse');
    expect(factValue('Eclipse depth')).toBe('12.5°');
    expect(factValue('Theoretical coverage')).toBe('4800 km footprint');
    expect(factValue('Transmit power')).toBe('63 mW');
    expect(screen.getByText('Battery 3925 mV')).toBeInTheDocument();

    const stations = screen.getByRole('table', { name: 'Receiving stations' });
    const cells = within(stations)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(
      expect.arrayContaining([
        'EA4GPZ_1',
        '1234.6',
        '12.3',
        '-121.5',
        '-8.3',
        '-4567',
        '1234',
        'OK',
      ]),
    );
    expect(within(stations).getByRole('link', { name: 'EA4GPZ_1' })).toHaveAttribute(
      'href',
      '/station/EA4GPZ_1@12345',
    );
    expect(screen.getByRole('button', { name: 'Download raw bytes' })).toBeEnabled();
  });

  it('shows FSK radio parameters', async () => {
    mockFetch({ '/v1/packetIna/fsk-1': { body: packetDetail({ ...FSK_PACKET, sunLit: true }) } });
    renderPacket('fsk-1', true);
    await screen.findByRole('heading', { name: 'SATLLA-2B packet' });
    expect(factValue('Bitrate')).toBe('9.6 kbps');
    expect(factValue('Frequency deviation')).toBe('4.8 kHz');
    expect(factValue('Receive bandwidth')).toBe('23.4 kHz');
    expect(screen.queryByText('Spreading factor')).not.toBeInTheDocument();
    expect(factValue('Eclipse')).toBe('In sunlight');
  });

  it('shows the unrecognized text and CRC ERROR for a CRC error frame', async () => {
    mockFetch({ '/v1/packet/crc-1': { body: packetDetail({ ...CRC_PACKET }) } });
    renderPacket('crc-1');
    expect(await screen.findByText(UNRECOGNIZED_PACKET)).toBeInTheDocument();
    expect(screen.getByText('CRC ERROR')).toBeInTheDocument();
  });

  it('says so when the packet cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({});
    renderPacket('missing');
    expect(await screen.findByText(PACKET_LOAD_ERROR)).toBeInTheDocument();
  });
});
