// Rows for the public-API suites, inserted straight into storage: packets of a seeded satellite,
// with the receptions of given stations (multi-row inserts, so thousands are cheap).
import type { Kysely } from 'kysely';
import type { Database, NewPacket, NewReception } from '../src/db/schema';

export interface PacketSpec {
  id: string;
  satellite: string;
  serverTime: number;
  /** `lateMs`: the station's reception was stored that long after the packet (a merge) */
  stations?: { id: string; userId: string; lateMs?: number }[];
  crcError?: boolean;
  parsed?: unknown;
}

export async function insertPackets(db: Kysely<Database>, specs: PacketSpec[]): Promise<void> {
  const packets: NewPacket[] = specs.map((s) => ({
    id: s.id,
    satellite: s.satellite,
    norad: 46494,
    serverTime: s.serverTime,
    raw: s.crcError
      ? Buffer.from('Error_CRC').toString('base64')
      : Buffer.from(s.id).toString('base64'),
    frameHash: `hash-${s.id}`,
    mode: 'LoRa',
    freq: 436.703,
    sf: 10,
    cr: 5,
    bw: 250,
    bitrate: null,
    freqDev: null,
    rxBw: null,
    parsed: s.crcError ? null : JSON.stringify(s.parsed ?? { payload: { tinygsTxPower: 100 } }),
    crcError: s.crcError ? 1 : 0,
    isTest: 0,
    satLat: 10,
    satLng: 20,
    satAlt: 550,
    sunLit: 1,
    eclipseDepth: -12.5,
    footPrint: 2500,
    stationNumber: s.stations?.length ?? 0,
    txPowerMw: 100,
    historical: 0,
  }));
  const receptions: NewReception[] = specs.flatMap((s) =>
    (s.stations ?? []).map((st) => ({
      packetId: s.id,
      stationId: st.id,
      userId: st.userId,
      serverTime: s.serverTime + (st.lateMs ?? 0),
      lat: 40,
      lng: -3,
      distance: 1200,
      elevation: 25,
      azimuth: 180,
      usecTime: s.serverTime * 1000,
      doppler: 1500,
      fDoppler: null,
      frequencyOffset: 0,
      crcError: s.crcError ? 1 : 0,
      rssi: -110,
      snr: 5,
      frequencyError: 120,
    })),
  );
  for (let i = 0; i < packets.length; i += 500)
    await db
      .insertInto('packets')
      .values(packets.slice(i, i + 500))
      .execute();
  for (let i = 0; i < receptions.length; i += 500)
    await db
      .insertInto('receptions')
      .values(receptions.slice(i, i + 500))
      .execute();
}

export const hexId = (n: number) => n.toString(16).padStart(24, '0');
