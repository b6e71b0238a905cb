import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import SatelliteTablePage from './SatelliteTablePage';
import { TABLE_EMPTY_TEXT, TABLE_LOADING_TEXT } from './components/SatelliteTable';
import { mockFetch } from '../../../test/fetchMock';
import { renderWithApp } from '../../../test/render';
import { buildSatellite } from '../../../test/fixtures/satellites';

const DAY_MS = 24 * 60 * 60 * 1000;

function starlinks(count: number) {
  return Array.from({ length: count }, (_, i) =>
    buildSatellite({
      name: `STARLINK-${String(i + 1).padStart(4, '0')}`,
      status: 'SupportedSL',
      configurations: [{ mode: 'LoRa', freq: 137.5 }],
      frames: 10 + i,
      confirmedPackets: 1000 - i,
    }),
  );
}

function bodyRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Satellites' });
  return within(table).getAllByRole('row').slice(1);
}

function firstCells(): string[] {
  return bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

describe('Starlink and Surveillance tables', () => {
  it('shows 50 rows per page, with 25, 100 and all as options', async () => {
    const user = userEvent.setup();
    mockFetch({ '/v1/satellites': { body: starlinks(120) } });
    renderWithApp(<SatelliteTablePage list="starlink" />);
    await screen.findByText('STARLINK-0120');
    expect(bodyRows()).toHaveLength(50);

    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: '25' }));
    expect(bodyRows()).toHaveLength(25);

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(firstCells()[0]).toBe('STARLINK-0095');

    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    expect(bodyRows()).toHaveLength(120);
  });

  it('sorts by a column header, toggling direction on a second click', async () => {
    const user = userEvent.setup();
    mockFetch({ '/v1/satellites': { body: starlinks(3) } });
    renderWithApp(<SatelliteTablePage list="starlink" />);
    await screen.findByText('STARLINK-0001');
    // default: most frames first
    expect(firstCells()).toEqual(['STARLINK-0003', 'STARLINK-0002', 'STARLINK-0001']);

    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(firstCells()).toEqual(['STARLINK-0001', 'STARLINK-0002', 'STARLINK-0003']);
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(firstCells()).toEqual(['STARLINK-0003', 'STARLINK-0002', 'STARLINK-0001']);

    await user.click(screen.getByRole('button', { name: 'Confirmed packets' }));
    expect(firstCells()).toEqual(['STARLINK-0001', 'STARLINK-0002', 'STARLINK-0003']);
  });

  it('leaves out satellites with fewer than 10 frames or silent for more than 365 days', async () => {
    mockFetch({
      '/v1/satellites': {
        body: [
          buildSatellite({ name: 'Fresh', status: 'Surveillance', frames: 10 }),
          buildSatellite({ name: 'Rare', status: 'Surveillance', frames: 9 }),
          buildSatellite({
            name: 'Silent',
            status: 'Surveillance',
            lastPacketTime: Date.now() - 366 * DAY_MS,
          }),
          buildSatellite({ name: 'Never', status: 'Surveillance', lastPacketTime: null }),
          buildSatellite({ name: 'Other', status: 'Supported' }),
        ],
      },
    });
    renderWithApp(<SatelliteTablePage list="surveillance" />);
    await screen.findByText('Fresh');
    expect(firstCells()).toEqual(['Fresh']);
  });

  it('shows the loading text, then the empty text', async () => {
    let release: (value: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    renderWithApp(<SatelliteTablePage list="starlink" />);
    expect(screen.getByText(TABLE_LOADING_TEXT)).toBeInTheDocument();
    release(new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } }));
    expect(await screen.findByText(TABLE_EMPTY_TEXT)).toBeInTheDocument();
  });

  it('a failed load is logged and shows the empty text', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch({ '/v1/satellites': { status: 503, body: { error: 'down' } } });
    renderWithApp(<SatelliteTablePage list="starlink" />);
    expect(await screen.findByText(TABLE_EMPTY_TEXT)).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
  });

  it('a row click opens the satellite page', async () => {
    const user = userEvent.setup();
    mockFetch({ '/v1/satellites': { body: starlinks(2) } });
    renderWithApp(<SatelliteTablePage list="starlink" />);
    await screen.findByText('STARLINK-0001');
    const row = bodyRows()[1];
    if (!row) throw new Error('missing row');
    await user.click(within(row).getAllByRole('cell')[3] as HTMLElement);
    expect(screen.getByTestId('location')).toHaveTextContent('/satellite/STARLINK-0001');
  });
});
