export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * What a decoder makes of a frame: the packet's `parsed` object as the live network serves it,
 * usually `{ header, payload, type, telemetry, ... }` with the satellite's own fields in camelCase
 * and the normalised `tinygs*` fields beside them. JSON-ready: NaN and infinities are `null`.
 */
export type DecodedFrame = JsonObject;

export const FORMAT_IDS = [
  'norby',
  'satlla_2b',
  'fossasat_2e',
  'fees',
  'polytech_universe_1',
  'tinygs_demo',
] as const;

/** A frame format: names one ksy/<id>.ksy, src/generated/<id>.js and src/formats/<id>.ts. */
export type FormatId = (typeof FORMAT_IDS)[number];

export interface FormatDecoder {
  readonly id: FormatId;
  /** May throw on a frame that does not parse; the registry turns that into `null`. */
  decode(frame: Uint8Array, satelliteName: string): DecodedFrame | null;
  /**
   * What a frame must satisfy before its decoded values are trusted (checks.ts). Every real
   * satellite's format declares them; a frame that fails is stored as unverified.
   */
  readonly checks?: FormatChecks;
}

/**
 * Why a frame was refused: the kind of the check it failed, or `layout` when it passed them all but
 * did not parse. A small fixed set, so it can label a metric.
 */
export const CHECK_KINDS = ['length', 'magic', 'crc', 'range', 'layout'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** A check of the frame's bytes, run before decoding. */
export interface FrameCheck {
  readonly kind: Exclude<CheckKind, 'range' | 'layout'>;
  /** Null when the frame passes, otherwise what is wrong with it (short, for logs and tests). */
  verify(frame: Uint8Array, satelliteName: string): string | null;
}

/** A plausible range of one decoded field, checked after decoding. */
export interface FieldRange {
  readonly kind: 'range';
  /** dotted path in the decoded object, e.g. `payload.tinygsBatVoltage` */
  readonly path: string;
  verify(decoded: DecodedFrame): string | null;
}

export interface FormatChecks {
  /**
   * The transmitter power the network shows for this satellite's frames, mW: it goes in the
   * envelope of an unverified frame (the only value such a frame carries besides its satellite).
   */
  readonly txPowerMw: number;
  /** in order; the first that fails names the reason */
  readonly frame: readonly FrameCheck[];
  readonly fields: readonly FieldRange[];
}
