import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/preact';
import type { SatelliteDetail } from '@tinygs/contracts';
import SatelliteRoute from '../src/app/routes/SatelliteRoute';
import { mockFetch } from './fetchMock';
import { renderWithApp } from './render';
import { buildSatellite } from './fixtures/satellites';
import { LORA_PACKET } from './fixtures/packets';

function detail(overrides: Partial<SatelliteDetail> = {}): SatelliteDetail {
  return {
    ...buildSatellite({ name: 'SATLLA-2B', displayName: 'SATLLA-2B' }),
    longDescription:
      '<p>Israeli <b>school</b> satellite</p><img src="x" onerror="alert(1)"><script>alert(2)</script>',
    tle: [
      'SATLLA-2B',
      '1 51014U 22002DW  22324.50000000  .00001000  00000-0  50000-4 0  9990',
      '2 51014  97.5000 100.0000 0010000 100.0000 260.0000 15.10000000 45678',
    ],
    lastTelemetry: { header: {}, payload: { batteryVolts: 3925 } },
    webTemplate: '<p>Battery {{ p.batteryVolts }} mV</p>',
    totals: { confirmedPackets: 135, stationReceptions: 410 },
    ...overrides,
  };
}

function packetsNamed(count: number, prefix: string) {
  return Array.from({ length: count }, (_, i) => ({ ...LORA_PACKET, id: `${prefix}-${i}` }));
}

describe('satellite page', () => {
  it('shows the description sanitised, totals, TLE, telemetry, viewer and packets', async () => {
    mockFetch({
      '/v1/satellite/SATLLA-2B': { body: detail() },
      '/v2/packets?satellite=SATLLA-2B': { body: { packets: [LORA_PACKET], templates: {} } },
    });
    const { container } = renderWithApp(<SatelliteRoute inactive={false} />, {
      route: '/satellite/SATLLA-2B',
      path: '/satellite/:name',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'SATLLA-2B' })).toBeInTheDocument();
    expect(screen.getByText('school')).toBeInTheDocument();
    expect(container.innerHTML).not.toContain('onerror');
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getByText('135')).toBeInTheDocument();
    expect(screen.getByText('410')).toBeInTheDocument();
    expect(screen.getByLabelText('Two-line element set')).toHaveTextContent('1 51014U');
    expect(screen.getByText('Battery 3925 mV')).toBeInTheDocument();
    expect(screen.getByTitle('3D orbit of SATLLA-2B')).toHaveAttribute(
      'src',
      '/viewer?sat=SATLLA-2B',
    );
    expect(screen.getByRole('button', { name: 'Full screen' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Packets' })).toBeInTheDocument();
  });

  it('shows the element set epoch, age and source, and flags a set older than 7 days', async () => {
    const DAY = 86_400_000;
    mockFetch({
      '/v1/satellite/SATLLA-2B': {
        body: detail({ tleEpoch: Date.now() - 2 * DAY - 3_600_000, tleSource: 'celestrak.org' }),
      },
      '/v2/packets?satellite=SATLLA-2B': { body: { packets: [], templates: {} } },
      '/v1/satellite/Old': {
        body: detail({ name: 'Old', tleEpoch: Date.now() - 10 * DAY, tleSource: 'db.satnogs.org' }),
      },
      '/v2/packets?satellite=Old': { body: { packets: [], templates: {} } },
    });
    const fresh = renderWithApp(<SatelliteRoute inactive={false} />, {
      route: '/satellite/SATLLA-2B',
      path: '/satellite/:name',
    });
    const facts = await screen.findByLabelText('Element set');
    expect(facts).toHaveTextContent('(2 days old)');
    expect(facts).toHaveTextContent('celestrak.org');
    expect(screen.queryByText('Outdated')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fresh.unmount();

    renderWithApp(<SatelliteRoute inactive={false} />, {
      route: '/satellite/Old',
      path: '/satellite/:name',
    });
    expect(await screen.findByLabelText('Element set')).toHaveTextContent('(10 days old)');
    expect(screen.getByText('Outdated')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/10 days old, more than 7 days/);
  });

  it('reads the epoch from line 1 when the answer has no tleEpoch', async () => {
    mockFetch({
      '/v1/satellite/SATLLA-2B': { body: detail() },
      '/v2/packets?satellite=SATLLA-2B': { body: { packets: [], templates: {} } },
    });
    renderWithApp(<SatelliteRoute inactive={false} />, {
      route: '/satellite/SATLLA-2B',
      path: '/satellite/:name',
    });
    // 22324.5: 20 November 2022, 12:00 UTC; no source known.
    const facts = await screen.findByLabelText('Element set');
    expect(facts).toHaveTextContent(new Date(Date.UTC(2022, 10, 20, 12)).getFullYear().toString());
    expect(facts).toHaveTextContent('Unknown');
    expect(screen.getByText('Outdated')).toBeInTheDocument();
  });

  it('has no TLE block without three lines and says No packets yet. without packets', async () => {
    mockFetch({
      '/v1/satellite/SATLLA-2B': { body: detail({ tle: null }) },
      '/v2/packets?satellite=SATLLA-2B': { body: { packets: [], templates: {} } },
    });
    renderWithApp(<SatelliteRoute inactive={false} />, {
      route: '/satellite/SATLLA-2B',
      path: '/satellite/:name',
    });
    expect(await screen.findByText('No packets yet.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Two-line element set')).not.toBeInTheDocument();
  });

  it('inactive: latest 100 packets, then the First 100 packets section', async () => {
    mockFetch({
      '/v1/satelliteIna/Gone': { body: detail({ name: 'Gone', status: 'Inactive' }) },
      '/v2/packetsIna?satellite=Gone': {
        body: { latest: packetsNamed(100, 'new'), first: packetsNamed(100, 'old'), templates: {} },
      },
    });
    renderWithApp(<SatelliteRoute inactive />, {
      route: '/satelliteIna/Gone',
      path: '/satelliteIna/:name',
    });
    const latest = await screen.findByRole('table', { name: 'Latest packets' });
    expect(within(latest).getAllByRole('row')).toHaveLength(101);
    expect(within(latest).getAllByRole('link')[0]).toHaveAttribute('href', '/packetIna/new-0');
    expect(screen.getByRole('heading', { name: 'First 100 packets' })).toBeInTheDocument();
    const first = screen.getByRole('table', { name: 'First 100 packets' });
    expect(within(first).getAllByRole('row')).toHaveLength(101);
  });

  it('inactive with at most 100 packets has no First 100 packets section', async () => {
    mockFetch({
      '/v1/satelliteIna/Gone': { body: detail({ name: 'Gone', status: 'Inactive' }) },
      '/v2/packetsIna?satellite=Gone': { body: { latest: packetsNamed(3, 'new'), templates: {} } },
    });
    renderWithApp(<SatelliteRoute inactive />, {
      route: '/satelliteIna/Gone',
      path: '/satelliteIna/:name',
    });
    await screen.findByRole('table', { name: 'Latest packets' });
    expect(screen.queryByText('First 100 packets')).not.toBeInTheDocument();
  });
});
