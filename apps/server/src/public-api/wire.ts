// Storage rows -> the wire shapes of SPEC.md section 3 and PROTOCOL.md ("What the public API
// returns"). Booleans are 0/1 and JSON is text in storage; nulls the live shapes do not allow
// become the neutral value the live network sends.
import { parseTle, subSatellitePoint } from '@tinygs/orbit';
import {
  isTleStale,
  type Packet,
  type PacketDetail,
  type Satellite,
  type StationInPacket,
} from '@tinygs/contracts';
import type { ReceptionRow, SatelliteRow } from '../db/schema';
import type { PacketWithName } from '../repositories/public/packet-reads';

function json<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function tleOf(row: Pick<SatelliteRow, 'tle'>): [string, string, string] | null {
  const tle = json<unknown>(row.tle, null);
  return Array.isArray(tle) && tle.length === 3 && tle.every((l) => typeof l === 'string')
    ? (tle as [string, string, string])
    : null;
}

/** Position now, or null when the satellite has no usable TLE (missing, malformed or decayed). */
export function positionNow(row: Pick<SatelliteRow, 'tle'>, now = Date.now()) {
  const lines = tleOf(row);
  if (!lines) return null;
  try {
    return subSatellitePoint(parseTle(lines), now);
  } catch {
    return null;
  }
}

export function toSatellite(row: SatelliteRow, now = Date.now()): Satellite {
  const pos = positionNow(row, now);
  return {
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    longDescription: row.longDescription,
    status: row.status as Satellite['status'],
    images: json<string[]>(row.images, []),
    configurations: json<Satellite['configurations']>(row.configurations, []),
    confirmedPackets: row.confirmedPackets,
    frames: row.frames,
    lastPacketTime: row.lastPacketTime,
    launchDate: row.launchDate,
    lat: pos ? pos.lat : null,
    lng: pos ? pos.lng : null,
    tleEpoch: row.tleEpoch,
    tleSource: row.tleSource,
    tleStale: row.tleEpoch !== null && isTleStale(row.tleEpoch, now),
  };
}

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
  return packet;
}

function toStationInPacket(r: ReceptionRow): StationInPacket {
  const at = r.stationId.lastIndexOf('@');
  const station: StationInPacket = {
    name: at > 0 ? r.stationId.slice(0, at) : r.stationId,
    userId: r.userId,
    location: [r.lat, r.lng],
    distance: r.distance,
    elevation: r.elevation,
    azimuth: r.azimuth,
    usec_time: r.usecTime ?? r.serverTime * 1000,
    doppler: r.doppler,
    frequency_offset: r.frequencyOffset ?? 0,
    crc_error: r.crcError === 1,
    receptionParams: { rssi: r.rssi ?? 0, snr: r.snr ?? 0, frequency_error: r.frequencyError ?? 0 },
  };
  if (r.fDoppler !== null) station.f_doppler = r.fDoppler;
  return station;
}

export function toPacketDetail(
  row: PacketWithName,
  receptions: ReceptionRow[],
  template: string | null,
): PacketDetail {
  return {
    ...toPacket(row),
    stations: receptions.map(toStationInPacket),
    sunLit: row.sunLit === 1,
    eclipseDepth: row.eclipseDepth ?? 0,
    footPrint: row.footPrint ?? 0,
    template,
    txPower: row.txPowerMw,
    name: row.satDisplayName ?? row.satellite,
  };
}
