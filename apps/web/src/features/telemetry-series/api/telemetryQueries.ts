// A satellite's decoded telemetry over time: its numeric fields, and one field's series.
import { useQuery } from '@tanstack/react-query';
import { TelemetryFieldsResponseSchema, TelemetrySeriesResponseSchema } from '@tinygs/contracts';
import { api } from '../../../lib/api';

/** GET /v1/satellite/{name}/telemetry?field=&from=&to= (also the download links' address). */
export function telemetrySeriesPath(
  satellite: string,
  field: string,
  from: number,
  to: number,
): string {
  const q = new URLSearchParams({ field, from: String(from), to: String(to) });
  return `/v1/satellite/${encodeURIComponent(satellite)}/telemetry?${q.toString()}`;
}

export function useTelemetrySeries(satellite: string, field: string, from: number, to: number) {
  return useQuery({
    queryKey: ['telemetry-series', satellite, field, from, to],
    queryFn: ({ signal }) =>
      api(telemetrySeriesPath(satellite, field, from, to), TelemetrySeriesResponseSchema, {
        signal,
      }),
  });
}

/** GET /v1/satellite/{name}/telemetry/fields. */
export function useTelemetryFields(satellite: string) {
  return useQuery({
    queryKey: ['telemetry-fields', satellite],
    queryFn: ({ signal }) =>
      api(
        `/v1/satellite/${encodeURIComponent(satellite)}/telemetry/fields`,
        TelemetryFieldsResponseSchema,
        { signal },
      ),
  });
}
