// Bridges the generated Kaitai parsers and the JSON the network stores.
import KaitaiStream from 'kaitai-struct/KaitaiStream.js';
import type { JsonObject, JsonValue } from './types';

type KaitaiClass<T> = new (io: KaitaiStream) => T;

/** Parses a whole frame; throws (EOF, failed `contents`/`valid`) when it does not fit the format. */
export function parseStruct<T>(Struct: KaitaiClass<T>, frame: Uint8Array): T {
  // KaitaiStream reads a whole ArrayBuffer, and a Node Buffer is a view into a shared pool
  // (its slice() does not copy either), so copy the frame: a few hundred bytes at most.
  const copy = new Uint8Array(frame.length);
  copy.set(frame);
  return new Struct(new KaitaiStream(copy.buffer));
}

// Instances (`instances:` in a .ksy) are getters on each generated prototype; their names are
// looked up once per class, not once per frame.
const instanceNames = new WeakMap<object, string[]>();

function gettersOf(prototype: object): string[] {
  let names = instanceNames.get(prototype);
  if (names === undefined) {
    names = Object.entries(Object.getOwnPropertyDescriptors(prototype))
      .filter(([name, descriptor]) => descriptor.get !== undefined && !name.startsWith('_'))
      .map(([name]) => name);
    instanceNames.set(prototype, names);
  }
  return names;
}

/**
 * A parsed struct as plain JSON, the way the live network serialises Kaitai objects: fields in
 * sequence order then instances, bytes as number arrays, NaN as null, and the runtime's own
 * properties (`_io`, `_parent`, `_root`, `_m_*`, unnamed padding `_unnamedN`) left out.
 */
export function structToJson(struct: object): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(struct)) {
    if (!key.startsWith('_') && value !== undefined) out[key] = toJson(value);
  }
  const prototype: unknown = Object.getPrototypeOf(struct);
  if (typeof prototype === 'object' && prototype !== null) {
    for (const name of gettersOf(prototype)) {
      const value: unknown = Reflect.get(struct, name);
      if (value !== undefined) out[name] = toJson(value);
    }
  }
  return out;
}

export function toJson(value: unknown): JsonValue {
  if (typeof value === 'number') return finiteOrNull(value);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return byteArray(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object' && value !== null) return structToJson(value);
  return null;
}

/** JSON has no NaN or infinity; the live network stores them as null. */
export function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** Bytes as a number array; a plain loop, as Array.from on a typed array is many times slower. */
export function byteArray(bytes: Uint8Array): number[] {
  const out = new Array<number>(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) out[i] = bytes[i] ?? 0;
  return out;
}
