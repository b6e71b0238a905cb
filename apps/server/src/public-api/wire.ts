// Shared by several resources: storage rows -> the wire shapes of SPEC.md section 3 and
// PROTOCOL.md ("What the public API returns"). Booleans are 0/1 and JSON is text in storage; nulls
// the live shapes do not allow become the neutral value the live network sends. A mapper used by
// one resource lives with it (<resource>/mapper.ts).
import type { Packet } from '@tinygs/contracts';
import type { PacketWithName } from '../repositories/public/packet-reads';

/** Stored JSON text, or `fallback` when there is none or it does not parse. */
export function json<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A packet in the list shape (latest packets, a station's packets, and the packet page). */
export function toPacket(row: PacketWithName): Packet {
  const packet: Packet = {
    id: row.id,
    raw: row.raw,
    serverTime: row.serverTime,
    mode: row.mode === 'FSK' ? 'FSK' : 'LoRa',
    freq: row.freq,
    sf: row.sf,
    cr: row.cr,
    bw: row.bw,
    bitrate: row.bitrate,
    freqDev: row.freqDev,
    rxBw: row.rxBw,
    satellite: row.satellite,
    norad: row.norad ?? 0,
    satDisplayName: row.satDisplayName ?? row.satellite,
    satPos: { lat: row.satLat ?? 0, lng: row.satLng ?? 0, alt: row.satAlt ?? 0 },
    stationNumber: row.stationNumber,
  };
  // Community tools test for the key itself: CRC-error packets carry no `parsed` at all.
  if (!row.crcError) packet.parsed = json<Packet['parsed']>(row.parsed, null);
  if (row.unverified) packet.unverified = true;
  return packet;
}
