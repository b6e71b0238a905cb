// The numbers of a decoded packet as telemetry samples: every finite number reachable through
// objects (and short arrays) of the `parsed` JSON, named by its dotted path. Bounded whatever the
// payload holds: depth, path length, array length and numbers per packet are capped, and names
// are plain identifiers, so a strange payload cannot make unbounded rows or odd field names.
import {
  TELEMETRY_FIELD_MAX_CHARS,
  TELEMETRY_MAX_FIELDS_PER_PACKET,
  TELEMETRY_MAX_FIELDS_PER_SATELLITE,
} from '@tinygs/contracts';
import type { NewPacket } from '../db/schema';

const MAX_DEPTH = 4;
/** Arrays longer than this (byte dumps, strings as codes) are not series. */
const MAX_ARRAY_ITEMS = 8;
const KEY = /^[A-Za-z0-9_]{1,48}$/;

export interface TelemetrySample {
  satellite: string;
  field: string;
  at: number;
  value: number;
}

/** The numeric fields of one decoded packet, in document order, at most TELEMETRY_MAX_FIELDS_PER_PACKET. */
export function numericFields(parsed: unknown): [field: string, value: number][] {
  const out: [string, number][] = [];
  const walk = (node: unknown, path: string, depth: number): void => {
    if (out.length >= TELEMETRY_MAX_FIELDS_PER_PACKET) return;
    if (typeof node === 'number') {
      if (Number.isFinite(node) && path) out.push([path, node]);
      return;
    }
    if (typeof node !== 'object' || node === null || depth >= MAX_DEPTH) return;
    if (Array.isArray(node)) {
      if (node.length > MAX_ARRAY_ITEMS) return;
      node.forEach((item, i) => walk(item, `${path}.${i}`, depth + 1));
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (out.length >= TELEMETRY_MAX_FIELDS_PER_PACKET) return;
      if (!KEY.test(key)) continue;
      const next = path ? `${path}.${key}` : key;
      if (next.length <= TELEMETRY_FIELD_MAX_CHARS) walk(value, next, depth + 1);
    }
  };
  walk(parsed, '', 0);
  return out;
}

/** Samples of one stored packet from its `parsed` column (JSON text or null). */
export function packetSamples(
  satellite: string,
  at: number,
  parsedJson: string | null | undefined,
): TelemetrySample[] {
  if (!parsedJson) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(parsedJson);
  } catch {
    return [];
  }
  return numericFields(parsed).map(([field, value]) => ({ satellite, field, at, value }));
}

/**
 * Whether a series may be stored: a field the satellite already has, or a new one while it has
 * fewer than TELEMETRY_MAX_FIELDS_PER_SATELLITE. `known` holds the stored fields per satellite and
 * takes the new field.
 */
export function withinFieldCap(
  known: Map<string, Set<string>>,
  satellite: string,
  field: string,
): boolean {
  let fields = known.get(satellite);
  if (!fields) {
    fields = new Set();
    known.set(satellite, fields);
  }
  if (fields.has(field)) return true;
  if (fields.size >= TELEMETRY_MAX_FIELDS_PER_SATELLITE) return false;
  fields.add(field);
  return true;
}

/** Samples of new packet rows (CRC errors and undecoded frames have none). */
export function newPacketSamples(
  rows: Iterable<Pick<NewPacket, 'satellite' | 'serverTime' | 'parsed' | 'crcError'> | null>,
): TelemetrySample[] {
  const out: TelemetrySample[] = [];
  for (const row of rows) {
    if (!row || row.crcError) continue;
    for (const s of packetSamples(row.satellite, row.serverTime, row.parsed)) out.push(s);
  }
  return out;
}
