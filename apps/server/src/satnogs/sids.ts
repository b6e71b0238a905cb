// One stored reception as a SiDS submission (Simple Downlink Share Convention), the form SatNOGS
// DB's POST /api/telemetry/ reads: application/x-www-form-urlencoded fields noradID, source,
// timestamp (ISO 8601, UTC), frame (hex), locator `longLat` with longitude `12.3456E` / `W` and
// latitude `56.7800N` / `S`, and the satellite's azimuth and elevation seen from the station when
// they were computed.
import type { DueFrame } from '../repositories/satnogs-outbox';
import { MAX_CLOCK_SKEW_MS } from '../network/ingest/rx-ingest';

/** Why a row cannot be sent at all (it is dropped, not retried). */
export type Unsendable =
  | 'gone' // its reception, packet or station was deleted
  | 'opted-out' // the station's owner opted out after it was queued
  | 'no-norad'
  | 'crc-error';

function hemisphere(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(4)}${value < 0 ? negative : positive}`;
}

/**
 * When the station heard it: the station's clock (usec_time) when it agrees with the server's to
 * within the skew the ingest trusts, else the time the server received it.
 */
export function receivedAt(serverTime: number, usecTime: number | null): number {
  if (usecTime === null) return serverTime;
  const stationMs = Math.round(usecTime / 1000);
  return Math.abs(stationMs - serverTime) <= MAX_CLOCK_SKEW_MS ? stationMs : serverTime;
}

export function sidsForm(row: DueFrame): URLSearchParams | Unsendable {
  if (
    row.raw === null ||
    row.serverTime === null ||
    row.lat === null ||
    row.lng === null ||
    row.stationName === null
  )
    return 'gone';
  if (row.satnogsOptOut === 1) return 'opted-out';
  if (row.crcError === 1) return 'crc-error';
  if (row.norad === null) return 'no-norad';
  const form = new URLSearchParams({
    noradID: String(row.norad),
    source: row.stationName,
    timestamp: new Date(receivedAt(row.serverTime, row.usecTime)).toISOString(),
    frame: Buffer.from(row.raw, 'base64').toString('hex').toUpperCase(),
    locator: 'longLat',
    longitude: hemisphere(row.lng, 'E', 'W'),
    latitude: hemisphere(row.lat, 'N', 'S'),
  });
  if (row.azimuth !== null) form.set('azimuth', row.azimuth.toFixed(1));
  if (row.elevation !== null) form.set('elevation', row.elevation.toFixed(1));
  return form;
}
