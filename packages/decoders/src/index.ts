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

/** Station-made frames (PROTOCOL.md): a CRC error report or a test transmission, never telemetry. */
function isStationMarker(frame: Uint8Array): boolean {
  if (frame.length < CRC_ERROR_MARKER.length) return false;
  const text = String.fromCharCode(...frame.subarray(0, TEST_FRAME_PREFIX.length));
  return text === CRC_ERROR_MARKER || text.startsWith(TEST_FRAME_PREFIX);
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
