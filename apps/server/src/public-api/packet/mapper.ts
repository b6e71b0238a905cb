// A packet and its receptions -> the packet page (SPEC.md section 3): the list shape plus every
// station that heard it, with its look angles and reception parameters.
import type { PacketDetail, StationInPacket } from '@tinygs/contracts';
import type { ReceptionRow } from '../../db/schema';
import type { PacketWithName } from '../../repositories/public/packet-reads';
import { toPacket } from '../wire';

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
