import type { z } from 'zod';

/** Messages of a failed parse, or [] when the value is accepted. */
export function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** The first message a form would show for this value, or undefined when it is accepted. */
export function firstMessage(schema: z.ZodType, value: unknown): string | undefined {
  return messages(schema, value)[0];
}

/** A LoRa `tele/rx` payload as firmware sends it. */
export const loraRx = {
  station_location: [40.4, -3.7],
  mode: 'LoRa',
  frequency: 436.703,
  frequency_offset: 0,
  satellite: 'Norbi',
  NORAD: 46494,
  sf: 10,
  cr: 5,
  bw: 250,
  iIQ: false,
  rssi: -121.5,
  snr: -7.25,
  frequency_error: 1520.3,
  unix_GS_time: 1668986101,
  usec_time: 1668986101261123,
  crc_error: false,
  data: 'jv////8KBgHJwJg=',
  noisy: false,
};
/** An FSK `tele/rx` payload with every optional field. */
export const fskRx = {
  station_location: [52.1, 4.3],
  mode: 'FSK',
  frequency: 436.9,
  frequency_offset: 0,
  satellite: 'Some-Sat',
  NORAD: 12345,
  bitrate: 9.6,
  freqdev: 4.8,
  rxBw: 19.5,
  rssi: -110,
  snr: 6,
  frequency_error: -300,
  unix_GS_time: 1668986101,
  usec_time: 1668986101261123,
  crc_error: false,
  data: 'AAECAw==',
  data_raw: 'AAECAwQ=',
  noisy: false,
  f_doppler: -9120,
};
