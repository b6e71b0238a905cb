// @tinygs/decoders: frame formats as Kaitai Struct definitions (ksy/), compiled at build time
// (src/generated/), mapped to the JSON the network stores as a packet's `parsed`.
import { unverifiedEnvelope } from './checks';
import { DECODERS, decoderIdFor } from './registry';
import type { CheckKind, DecodedFrame } from './types';

export {
  DECODERS,
  SATELLITE_FORMATS,
  decoderIdFor,
  isFormatId,
  registerSatellite,
  unregisterSatellite,
} from './registry';
export { CHECK_KINDS, FORMAT_IDS } from './types';
export {
  CRC16_MODELS,
  crc16,
  frameCheck,
  lengthAtLeast,
  lengthByte,
  lengthIs,
  magic,
  range,
  unverifiedEnvelope,
  type Crc16Model,
} from './checks';
export type {
  CheckKind,
  DecodedFrame,
  FieldRange,
  FormatChecks,
  FormatDecoder,
  FormatId,
  FrameCheck,
  JsonObject,
  JsonValue,
} from './types';
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

/** What the checked decoding made of a frame; `parsed` is what the packet stores. */
export type CheckedFrame =
  /** passed its format's checks (or the format declares none) and decoded */
  | { outcome: 'decoded'; parsed: DecodedFrame }
  /** failed a check: `parsed` is the envelope (satellite, transmitter power), nothing decoded */
  | { outcome: 'unverified'; parsed: DecodedFrame; failed: CheckKind; reason: string }
  /** no decoder, a station's CRC-error or test frame, or a frame the format does not recognise */
  | { outcome: 'undecoded'; parsed: null };

const UNDECODED: CheckedFrame = { outcome: 'undecoded', parsed: null };
/** A parser's error text can quote the bytes it choked on: kept short. */
const MAX_REASON_CHARS = 200;

/**
 * Decodes a frame and applies the checks its format declares (checks.ts): the bytes first
 * (length, magic, CRC), then the ranges of key decoded fields. A frame of a checked format that
 * fails one, or that passes them but does not parse, is unverified. Never throws.
 */
export function decodeFrameChecked(satelliteName: string, frame: Uint8Array): CheckedFrame {
  const formatId = decoderIdFor(satelliteName);
  if (formatId === null || isStationMarker(frame)) return UNDECODED;
  const format = DECODERS[formatId];
  const checks = format.checks;
  const unverified = (failed: CheckKind, reason: string): CheckedFrame => ({
    outcome: 'unverified',
    parsed: unverifiedEnvelope(satelliteName, checks?.txPowerMw ?? 0),
    failed,
    reason: reason.slice(0, MAX_REASON_CHARS),
  });
  if (checks) {
    for (const check of checks.frame) {
      const failure = attempt(() => check.verify(frame, satelliteName));
      if (failure !== null) return unverified(check.kind, failure);
    }
  }
  let parsed: DecodedFrame | null;
  try {
    parsed = format.decode(frame, satelliteName);
  } catch (err) {
    return checks ? unverified('layout', messageOf(err)) : UNDECODED;
  }
  if (parsed === null) return UNDECODED;
  for (const field of checks?.fields ?? []) {
    const failure = attempt(() => field.verify(parsed));
    if (failure !== null) return unverified('range', failure);
  }
  return { outcome: 'decoded', parsed };
}

/** A check's or parser's verdict; what it throws counts as a failure with its message. */
function attempt(run: () => string | null): string | null {
  try {
    return run();
  } catch (err) {
    return messageOf(err);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
