import { configure, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import type { TelemetrySeries as Series } from '@tinygs/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../../test/fetchMock';
import { renderWithApp } from '../../../../test/render';
import { TELEMETRY_SERIES_TEXTS, TelemetrySeries } from './TelemetrySeries';

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

const DAY = 86_400_000;
const LAST = Date.UTC(2022, 10, 24, 6);
const FIELDS = {
  satellite: 'SATLLA-2B',
  fields: [
    { field: 'header.msgTypeId', firstAt: LAST - 4 * DAY, lastAt: LAST, samples: 130 },
    { field: 'payload.batteryVolts', firstAt: LAST - 4 * DAY, lastAt: LAST, samples: 130 },
    { field: 'payload.snsNtc1', firstAt: LAST - 4 * DAY, lastAt: LAST - DAY, samples: 120 },
  ],
};
const path = (field: string, from: number, to: number) =>
  `/v1/satellite/SATLLA-2B/telemetry?field=${field}&from=${from}&to=${to}`;

function series(field: string, days: number, to: number, bucket: Series['bucket']): Series {
  return {
    satellite: 'SATLLA-2B',
    field,
    bucket,
    from: to - days * DAY,
    to,
    t: [to - 2 * 3_600_000, to - 3_600_000],
    min: [3900, 3890],
    avg: [3910, 3895],
    max: [3925, 3900],
    count: [3, 2],
    truncated: false,
  };
}

describe('telemetry over time section', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts on the battery voltage over 7 days up to its newest sample and follows the range and field picked', async () => {
    const week = path('payload.batteryVolts', LAST - 7 * DAY, LAST);
    const year = path('payload.batteryVolts', LAST - 365 * DAY, LAST);
    const temps = path('payload.snsNtc1', LAST - DAY - 7 * DAY, LAST - DAY);
    const calls = mockFetch({
      '/v1/satellite/SATLLA-2B/telemetry/fields': { body: FIELDS },
      [week]: { body: series('payload.batteryVolts', 7, LAST, 'hour') },
      [year]: { body: series('payload.batteryVolts', 365, LAST, 'day') },
      [temps]: { body: series('payload.snsNtc1', 7, LAST - DAY, 'hour') },
    });
    renderWithApp(<TelemetrySeries satellite="SATLLA-2B" />);
    expect(await screen.findByText(/2 buckets \(min\/avg\/max per hour\)/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: TELEMETRY_SERIES_TEXTS.field })).toHaveTextContent(
      'payload.batteryVolts',
    );
    expect(screen.getByRole('link', { name: TELEMETRY_SERIES_TEXTS.csv })).toHaveAttribute(
      'href',
      `${week}&format=csv`,
    );

    await userEvent.click(screen.getByRole('button', { name: '1 year' }));
    expect(await screen.findByText(/2 buckets \(min\/avg\/max per day\)/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: TELEMETRY_SERIES_TEXTS.json })).toHaveAttribute(
      'href',
      `${year}&format=json`,
    );

    await userEvent.click(screen.getByRole('combobox', { name: TELEMETRY_SERIES_TEXTS.field }));
    await userEvent.click(await screen.findByRole('option', { name: 'payload.snsNtc1' }));
    // A newly picked field starts again on 7 days, up to its own newest sample.
    expect(await screen.findByRole('link', { name: TELEMETRY_SERIES_TEXTS.csv })).toHaveAttribute(
      'href',
      `${temps}&format=csv`,
    );
    // The link follows the pick at once; the series is asked for by the query that follows it.
    await vi.waitFor(() =>
      expect(calls.map((c) => c.url)).toEqual(
        expect.arrayContaining(['/v1/satellite/SATLLA-2B/telemetry/fields', week, year, temps]),
      ),
    );
  });

  it('says so when a satellite has no series, and when they cannot be loaded', async () => {
    mockFetch({
      '/v1/satellite/SATLLA-2B/telemetry/fields': { body: { satellite: 'SATLLA-2B', fields: [] } },
    });
    renderWithApp(<TelemetrySeries satellite="SATLLA-2B" />);
    expect(await screen.findByText(TELEMETRY_SERIES_TEXTS.none)).toBeInTheDocument();
    vi.unstubAllGlobals();
    mockFetch({});
    renderWithApp(<TelemetrySeries satellite="Other" />);
    expect(await screen.findByText(TELEMETRY_SERIES_TEXTS.error)).toBeInTheDocument();
  });
});
