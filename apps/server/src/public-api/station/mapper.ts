// A station row -> its page (the public fields, and the owner-only ones when asked for), and a
// station's frames -> its statistics per UTC day.
import type { Picture, StationFull, StationStatistics } from '@tinygs/contracts';
import type { StationRow } from '../../db/schema';

export function toStationFull(
  row: StationRow & { satDisplayName: string | null },
  withOwnerFields: boolean,
  pictures: Picture[],
): StationFull {
  const pub: StationFull = {
    id: row.id,
    name: row.name,
    userId: row.userId,
    status: row.status === 1 ? 1 : 0,
    satellite: row.satellite,
    satDisplayName: row.satDisplayName,
    version: row.version,
    lastPacketTime: row.lastPacketTime,
    lastSeen: row.lastSeen,
    creationDate: row.creationDate,
    autoTune: ([0, 137, 433, 900, 2400] as const).find((b) => b === row.autoTune) ?? null,
    test: row.test === 1,
    description: row.description,
    antenna: row.antenna ?? '',
    antennaBand: [row.antennaBandLowMhz, row.antennaBandHighMhz],
    location: [row.lat, row.lng],
    elevation: row.elevationM ?? 0,
    recordDistance: row.recordDistanceKm,
    telemetryPackets: row.telemetryPackets,
    confirmedPackets: row.confirmedPackets,
    pictures,
  };
  if (!withOwnerFields) return pub;
  return {
    ...pub,
    local_ip: row.localIp,
    wifiRssi: row.wifiRssi,
    radioStatus: row.radioStatus,
    autoUpdate: row.autoUpdate === 1,
    beta: row.beta === 1,
    tx: row.tx === 1,
    modem_conf: row.modemConf ?? '',
    satnogsOptOut: row.satnogsOptOut === 1,
  };
}

interface StationFrame {
  serverTime: number;
  satellite: string;
  satLat: number | null;
  satLng: number | null;
  satAlt: number | null;
}

/** Frames grouped by UTC day, in the order given, each with the satellite's position. */
export function toStationStatistics(frames: readonly StationFrame[]): StationStatistics {
  const days = new Map<string, StationStatistics[number]>();
  for (const r of frames) {
    const day = new Date(r.serverTime).toISOString().slice(0, 10);
    const entry = days.get(day) ?? { day, frames: [] };
    entry.frames.push({
      satellite: r.satellite,
      satPos: { lat: r.satLat ?? 0, lng: r.satLng ?? 0, alt: r.satAlt ?? 0 },
    });
    days.set(day, entry);
  }
  return [...days.values()];
}
