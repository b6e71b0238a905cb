import { configure, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, type Pass } from '@tinygs/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetchMock';
import { renderWithApp } from '../../../test/render';
import { SATELLITE_PASSES_TEXTS, SatellitePasses } from './components/SatellitePasses';
import { STATION_PASSES_TEXTS, StationPasses } from './components/StationPasses';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const T0 = Date.UTC(2026, 5, 1, 12);

function pass(satellite: string, minutes: number, autoTune = false): Pass {
  const aos = T0 + minutes * 60_000;
  return {
    satellite,
    displayName: satellite,
    norad: 46494,
    freq: 436.703,
    mode: 'LoRa',
    aos,
    los: aos + 9 * 60_000 + 30_000,
    maxElevationAt: aos + 4 * 60_000,
    maxElevation: 47.4,
    aosAzimuth: 12.2,
    maxElevationAzimuth: 95.1,
    losAzimuth: 181.6,
    illumination: 'partly',
    autoTune,
  };
}

describe('pass predictions', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('lists a station’s passes with azimuths, duration and sunlight, marking auto-tune', async () => {
    mockFetch({
      '/v1/station/Roof_GS@42/passes': {
        body: {
          stationId: 'Roof_GS@42',
          band: 433,
          autoTune: true,
          location: [40.4, -3.7],
          from: T0,
          to: T0 + 86_400_000,
          passes: [pass('Norbi', 10, true), pass('FEES', 20)],
        },
      },
    });
    renderWithApp(<StationPasses apiPath="/v1/station/Roof_GS@42" />);
    const table = await screen.findByRole('table', { name: 'Next passes over this station' });
    const rows = within(table).getAllByTestId('pass-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Norbi');
    expect(within(rows[0] as HTMLElement).getByText('Auto-tune')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).queryByText('Auto-tune')).not.toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('az 12°');
    expect(rows[0]).toHaveTextContent('47°');
    expect(rows[0]).toHaveTextContent('az 182°');
    expect(rows[0]).toHaveTextContent('9 min 30 s');
    expect(rows[0]).toHaveTextContent('Partly eclipsed');
    expect(screen.getByText(/433 MHz band/)).toBeInTheDocument();
  });

  it('says when a station has no band', async () => {
    mockFetch({
      '/v1/station/Bare_GS@42/passes': {
        body: {
          stationId: 'Bare_GS@42',
          band: null,
          autoTune: false,
          location: [0, 0],
          from: T0,
          to: T0 + 86_400_000,
          passes: [],
        },
      },
    });
    renderWithApp(<StationPasses apiPath="/v1/station/Bare_GS@42" />);
    expect(await screen.findByText(STATION_PASSES_TEXTS.noBand)).toBeInTheDocument();
  });

  it('checks the place, then lists a satellite’s passes over it, or over one of the user’s stations', async () => {
    localStorage.setItem(STORAGE_KEYS.userId, '42');
    const answer = (lat: number, lng: number) => ({
      body: {
        satellite: 'Norbi',
        location: [lat, lng],
        from: T0,
        to: T0 + 86_400_000,
        passes: [pass('Norbi', 30)],
      },
    });
    const calls = mockFetch({
      '/v1/stations?userId=42': {
        body: [
          {
            name: 'Roof_GS',
            userId: '42',
            location: [51.5, -0.12],
            status: 1,
            lastSeen: null,
            lastPacketTime: null,
            version: null,
            satellite: null,
            satDisplayName: null,
            autoTune: null,
          },
        ],
      },
      '/v1/satellite/Norbi/passes?lat=-33.87&lng=151.2': answer(-33.87, 151.2),
      '/v1/satellite/Norbi/passes?lat=51.5&lng=-0.12': answer(51.5, -0.12),
    });
    renderWithApp(<SatellitePasses satellite="Norbi" />);
    await userEvent.type(screen.getByLabelText('Latitude'), '95');
    await userEvent.type(screen.getByLabelText('Longitude'), '151.2');
    await userEvent.click(screen.getByRole('button', { name: SATELLITE_PASSES_TEXTS.show }));
    expect(screen.getByText('Latitude must be between -90 and 90')).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/passes'))).toBe(false);

    await userEvent.clear(screen.getByLabelText('Latitude'));
    await userEvent.type(screen.getByLabelText('Latitude'), '-33.87');
    await userEvent.click(screen.getByRole('button', { name: SATELLITE_PASSES_TEXTS.show }));
    expect(
      await screen.findByRole('table', { name: 'Next passes over -33.87, 151.2' }),
    ).toBeInTheDocument();

    await userEvent.click(await screen.findByLabelText(SATELLITE_PASSES_TEXTS.myStation));
    await userEvent.click(await screen.findByRole('option', { name: 'Roof_GS' }));
    expect(
      await screen.findByRole('table', { name: 'Next passes over 51.5, -0.12' }),
    ).toBeInTheDocument();
  });
});
