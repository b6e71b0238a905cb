// What a frame must satisfy before the numbers decoded from it are trusted. A format declares its
// checks (docs/DECODERS.md, "Declaring checks"): checks on the bytes (length, magic, CRC) run before
// decoding, ranges of key decoded fields after it. A frame that fails one is unverified: it is
// stored with the envelope the network shows for such frames, never with implausible numbers.
import { crc16CcittFalse, crc16X25 } from './crc16';
import type { DecodedFrame, FieldRange, FrameCheck, JsonObject, JsonValue } from './types';

function hex(value: number, digits: number): string {
  return `0x${value.toString(16).padStart(digits, '0')}`;
}

/** The frame is one of these lengths, in bytes. */
export function lengthIs(...lengths: number[]): FrameCheck {
  return {
    kind: 'length',
    verify: (frame) =>
      lengths.includes(frame.length)
        ? null
        : `${frame.length} bytes, expected ${lengths.join(' or ')}`,
  };
}

/** The frame has at least this many bytes (longer ones are decoded from their start). */
export function lengthAtLeast(min: number): FrameCheck {
  return {
    kind: 'length',
    verify: (frame) =>
      frame.length >= min ? null : `${frame.length} bytes, expected ${min} or more`,
  };
}

/**
 * The frame's own length field: the byte at `offset` counts the bytes that follow it
 * (frame length = offset + 1 + value).
 */
export function lengthByte(offset: number): FrameCheck {
  return {
    kind: 'length',
    verify: (frame) => {
      const value = frame[offset];
      if (value === undefined) return `no length byte at ${offset}`;
      const following = frame.length - offset - 1;
      return value === following ? null : `length byte says ${value}, ${following} follow it`;
    },
  };
}

type Expected = string | readonly number[];

function bytesOf(expected: Expected): readonly number[] {
  return typeof expected === 'string'
    ? Array.from(expected, (c) => c.charCodeAt(0) & 0xff)
    : expected;
}

/**
 * Fixed bytes at `offset`: a callsign, sync word or header constant. Text is taken as Latin-1
 * bytes. A function gives bytes that depend on the satellite (one format, several satellites).
 */
export function magic(
  offset: number,
  expected: Expected | ((satelliteName: string) => Expected),
): FrameCheck {
  const fixed = typeof expected === 'function' ? null : bytesOf(expected);
  return {
    kind: 'magic',
    verify: (frame, satelliteName) => {
      const want = fixed ?? bytesOf((expected as (name: string) => Expected)(satelliteName));
      for (let i = 0; i < want.length; i += 1) {
        const got = frame[offset + i];
        if (got !== want[i]) {
          const shown = got === undefined ? 'nothing' : hex(got, 2);
          return `byte ${offset + i} is ${shown}, expected ${hex(want[i] ?? 0, 2)}`;
        }
      }
      return null;
    },
  };
}

export const CRC16_MODELS = {
  /** poly 0x1021 reflected, init 0xFFFF, final xor 0xFFFF (HDLC, AX.25); check value 0x906E */
  'CRC-16/X-25': crc16X25,
  /** poly 0x1021, init 0xFFFF, not reflected, no final xor; check value 0x29B1 */
  'CRC-16/CCITT-FALSE': crc16CcittFalse,
} as const;
export type Crc16Model = keyof typeof CRC16_MODELS;

/**
 * A CRC-16 in the frame's last two bytes (`order`: little- or big-endian), computed over the bytes
 * from `from` up to it.
 */
export function crc16(
  model: Crc16Model,
  options: { from?: number; order?: 'le' | 'be' } = {},
): FrameCheck {
  const from = options.from ?? 0;
  const calculate = CRC16_MODELS[model];
  return {
    kind: 'crc',
    verify: (frame) => {
      if (frame.length < from + 2) return `${frame.length} bytes, too short for a ${model}`;
      const end = frame.length - 2;
      const a = frame[end] ?? 0;
      const b = frame[end + 1] ?? 0;
      const stored = options.order === 'be' ? (a << 8) | b : a | (b << 8);
      const computed = calculate(frame.subarray(from, end));
      return computed === stored
        ? null
        : `${model} is ${hex(computed, 4)}, frame says ${hex(stored, 4)}`;
    },
  };
}

/** Any other check on the bytes; `verify` returns null when the frame passes. */
export function frameCheck(
  kind: FrameCheck['kind'],
  verify: (frame: Uint8Array, satelliteName: string) => string | null,
): FrameCheck {
  return { kind, verify };
}

function valueAt(decoded: JsonObject, keys: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = decoded;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * A decoded number lies in [min, max]. `nullable`: null passes too, for sensors the satellite
 * reports as off (NaN on the wire). A missing field fails: the frame did not decode as declared.
 */
export function range(
  path: string,
  min: number,
  max: number,
  options: { nullable?: boolean } = {},
): FieldRange {
  const keys = path.split('.');
  return {
    kind: 'range',
    path,
    verify: (decoded) => {
      const value = valueAt(decoded, keys);
      if (value === null && options.nullable) return null;
      if (typeof value !== 'number')
        return `${path} is ${value === undefined ? 'missing' : JSON.stringify(value)}`;
      return value >= min && value <= max ? null : `${path} is ${value}, outside ${min}..${max}`;
    },
  };
}

/**
 * The `parsed` object of an unverified frame: the satellite and its transmitter power, nothing
 * decoded, `telemetry: false`.
 */
export function unverifiedEnvelope(satelliteName: string, txPowerMw: number): DecodedFrame {
  return {
    payload: { tinygsSatellite: satelliteName, tinygsTxPower: txPowerMw },
    tinygsSatellite: satelliteName,
    telemetry: false,
  };
}
