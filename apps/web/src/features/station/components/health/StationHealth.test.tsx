import { configure, screen, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import type { StationHealth as Health } from '@tinygs/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../../test/fetchMock';
import { renderWithApp } from '../../../../../test/render';
import { HEALTH_TEXTS, StationHealth } from './StationHealth';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 5, 1);

function health(days: number, overrides: Partial<Health> = {}): Health {
  return {
    stationId: 'Roof_GS@42',
    days,
    from: FROM,
    to: FROM + days * DAY,
    online: true,
    onlineAtStart: true,
    uptimePercent: 87.5,
    outages: 1,
    packetsPerDay: 12.3,
    transitions: [
      { at: FROM + DAY, online: false, cause: 'last-will' },
      { at: FROM + DAY + 6 * 3_600_000, online: true, cause: 'connect' },
    ],
    transitionsTruncated: false,
    daily: Array.from({ length: days }, (_, i) => ({
      day: new Date(FROM + i * DAY).toISOString().slice(0, 10),
      uptimePercent: i === 1 ? 75 : 100,
      packets: 10 + i,
    })),
    ...overrides,
  };
}

describe('station health section', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows uptime, outages, packets per day, the timeline and the latest changes with causes', async () => {
    const calls = mockFetch({
      '/v1/station/Roof_GS@42/health?days=7': { body: health(7) },
      '/v1/station/Roof_GS@42/health?days=30': {
        body: health(30, { uptimePercent: 99.2, outages: 4, transitions: [] }),
      },
    });
    renderWithApp(<StationHealth stationId="Roof_GS@42" createdAt={0} />);
    expect(await screen.findByText('87.5 %')).toBeInTheDocument();
    expect(screen.getByText('12.3')).toBeInTheDocument();
    const timeline = screen.getByTestId('status-timeline');
    expect(timeline).toHaveAccessibleName(/last 7 days: online 87.5 %, 1 outages/);
    const spans = [...timeline.children].map((c) => c.getAttribute('data-online'));
    expect(spans).toEqual(['true', 'false', 'true']);
    const changes = screen.getByRole('table', { name: 'Latest status changes' });
    const rows = within(changes).getAllByRole('row');
    // Newest first.
    expect(rows[1]).toHaveTextContent('Connected to the broker');
    expect(rows[2]).toHaveTextContent('Connection lost (last will)');

    await userEvent.click(screen.getByRole('button', { name: '30 days' }));
    expect(await screen.findByText('99.2 %')).toBeInTheDocument();
    expect(screen.getByText(HEALTH_TEXTS.noChanges)).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/v1/station/Roof_GS@42/health?days=30');
  });

  it('says so when the health cannot be loaded', async () => {
    mockFetch({});
    renderWithApp(<StationHealth stationId="Roof_GS@42" createdAt={0} />);
    expect(await screen.findByText(HEALTH_TEXTS.error)).toBeInTheDocument();
  });
});
