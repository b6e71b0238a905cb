// @tinygs/decoders: frame formats as Kaitai Struct definitions (ksy/), compiled at build time
// (src/generated/), mapped to the JSON the network stores as a packet's `parsed`.
import { DECODERS, decoderIdFor } from './registry';
import type { DecodedFrame } from './types';

export {
  DECODERS,
  SATELLITE_FORMATS,
  decoderIdFor,
  isFormatId,
  registerSatellite,
  unregisterSatellite,
} from './registry';
export { FORMAT_IDS } from './types';
export type { DecodedFrame, FormatDecoder, FormatId, JsonObject, JsonValue } from './types';
export {
  DEMO_FRAME_BYTES,
  DEMO_GPS_BYTES,
  encodeDemoFrame,
  type DemoGpsFix,
  type DemoTelemetry,
} from './demo-encoder';

const CRC_ERROR_MARKER = 'Error_CRC';
const TEST_FRAME_PREFIX = 'TinyGS-test ';

const CRC_ERROR_BYTES = Uint8Array.from(CRC_ERROR_MARKER, (c) => c.charCodeAt(0));
const TEST_PREFIX_BYTES = Uint8Array.from(TEST_FRAME_PREFIX, (c) => c.charCodeAt(0));

// Compared byte by byte: building a string of the first bytes cost more than decoding the frame.
function startsWithBytes(frame: Uint8Array, prefix: Uint8Array, exact: boolean): boolean {
  if (exact ? frame.length !== prefix.length : frame.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (frame[i] !== prefix[i]) return false;
  return true;
}

/** Station-made frames (PROTOCOL.md): a CRC error report or a test transmission, never telemetry. */
function isStationMarker(frame: Uint8Array): boolean {
  return (
    startsWithBytes(frame, CRC_ERROR_BYTES, true) ||
    startsWithBytes(frame, TEST_PREFIX_BYTES, false)
  );
}

/**
 * Decodes a frame of the named satellite. Null when the satellite has no decoder, the frame is a
 * CRC-error or test frame, or the bytes do not fit the format. Never throws.
 */
export function decodeFrame(satelliteName: string, frame: Uint8Array): DecodedFrame | null {
  const formatId = decoderIdFor(satelliteName);
  if (formatId === null || isStationMarker(frame)) return null;
  try {
    return DECODERS[formatId].decode(frame, satelliteName);
  } catch {
    return null;
  }
}
