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
}
