// The `tele/rx` payload checked without zod: the server checks thousands of receptions a second,
// and RxPayloadSchema's parse (walking the union, copying the object) was the larger part of the
// check. This function accepts exactly what RxPayloadSchema accepts and answers the same value,
// held to it by a test that puts values of every JSON type and the schema's edge cases in every
// place of a payload (test/rx-check.test.ts). The server parses a payload this refuses with the
// schema after all, for its message: refusals stay the schema's.
import { isBase64 } from './binary';
import {
  MQTT_FIELD_MAX_CHARS,
  MQTT_FRAME_BASE64_MAX_CHARS,
  type FskRxPayload,
  type LoRaRxPayload,
  type RxPayload,
} from './mqtt';

type Fields = Record<string, unknown>;

/** z.number(): finite */
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** z.number().int(): a safe integer */
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
/** length before pattern, as the schema does */
const isFrame = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= MQTT_FRAME_BASE64_MAX_CHARS && isBase64(v);

function isLocation(v: unknown): boolean {
  return Array.isArray(v) && v.length === 2 && isNumber(v[0]) && isNumber(v[1]);
}

/** The fields both modes carry. */
function commonFields(p: Fields): boolean {
  return (
    isLocation(p.station_location) &&
    isNumber(p.frequency) &&
    isNumber(p.frequency_offset) &&
    typeof p.satellite === 'string' &&
    p.satellite.length <= MQTT_FIELD_MAX_CHARS &&
    isInt(p.NORAD) &&
    isNumber(p.rssi) &&
    isNumber(p.snr) &&
    isNumber(p.frequency_error) &&
    isNumber(p.unix_GS_time) &&
    isNumber(p.usec_time) &&
    isBoolean(p.crc_error) &&
    isFrame(p.data) &&
    (p.noisy === undefined || isBoolean(p.noisy)) &&
    (p.f_doppler === undefined || isNumber(p.f_doppler))
  );
}

/**
 * The payload as RxPayloadSchema would answer it (a JSON value, as JSON.parse gives), or null when
 * the schema would refuse it. Unknown keys stay, as in the schema's loose objects.
 */
export function checkRxPayload(value: unknown): RxPayload | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const p = value as Fields;
  if (p.mode === 'LoRa') {
    const lora =
      commonFields(p) &&
      isInt(p.sf) &&
      isInt(p.cr) &&
      isNumber(p.bw) &&
      (p.iIQ === undefined || isBoolean(p.iIQ));
    return lora ? (p as LoRaRxPayload) : null;
  }
  if (p.mode === 'FSK') {
    const fsk =
      commonFields(p) &&
      isNumber(p.bitrate) &&
      isNumber(p.freqdev) &&
      isNumber(p.rxBw) &&
      (p.data_raw === undefined || isFrame(p.data_raw));
    return fsk ? (p as FskRxPayload) : null;
  }
  return null;
}
