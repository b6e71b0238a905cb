// Test data for the station feature's component tests (not imported by the app).
import type { Packet, StationOwnerView } from '@tinygs/contracts';

export function ownerStation(over: Partial<StationOwnerView> = {}): StationOwnerView {
  const name = over.name ?? 'Roof';
  const userId = over.userId ?? '42';
  return {
    name,
    userId,
    status: 1,
    satellite: 'Norbi',
    satDisplayName: 'NORBI',
    version: 2603242,
    lastPacketTime: Date.parse('2025-03-01T10:00:00Z'),
    lastSeen: Date.parse('2025-03-01T10:05:00Z'),
    creationDate: Date.parse('2022-01-01T00:00:00Z'),
    autoTune: 433,
    test: false,
    description: 'On the roof',
    antenna: 'Dipole',
    antennaBand: [400, 450],
    location: [40.4168, -3.7038],
    elevation: 650.456,
    recordDistance: 2345.67,
    telemetryPackets: 1200,
    confirmedPackets: 800,
    pictures: [],
    local_ip: '192.168.1.20',
    wifiRssi: -55,
    radioStatus: 0,
    autoUpdate: true,
    beta: false,
    tx: true,
    modem_conf: JSON.stringify({
      mode: 'LoRa',
      freq: 436.703,
      bw: 250,
      sf: 10,
      cr: 5,
      sw: 18,
      pwr: 5,
      cl: 120,
      pl: 8,
      gain: 0,
      crc: true,
      fldro: 1,
      sat: 'Norbi',
      NORAD: 46494,
    }),
    ...over,
    id: over.id ?? `${name}@${userId}`,
  };
}

/** What a visitor receives: the owner-only fields are left out by the server. */
export function publicStation(over: Partial<StationOwnerView> = {}) {
  const full = ownerStation(over);
  const {
    local_ip: _ip,
    wifiRssi: _wifi,
    radioStatus: _radio,
    autoUpdate: _au,
    beta: _beta,
    tx: _tx,
    modem_conf: _conf,
    ...pub
  } = full;
  return pub;
}

export function packet(i: number, over: Partial<Packet> = {}): Packet {
  return {
    id: `p${i}`,
    raw: 'AQID',
    serverTime: Date.parse('2025-03-01T10:00:00Z') - i * 60_000,
    mode: 'LoRa',
    freq: 436.703,
    sf: 10,
    cr: 5,
    bw: 250,
    bitrate: null,
    freqDev: null,
    rxBw: null,
    satellite: 'Norbi',
    norad: 46494,
    satDisplayName: 'NORBI',
    parsed: { payload: {} },
    satPos: { lat: 10, lng: 20, alt: 550 },
    stationNumber: 1,
    ...over,
  };
}
