import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  PacketDetailSchema,
  PacketSchema,
  StationFullSchema,
  StationListItemSchema,
  StationOwnerViewSchema,
  formatStationId,
  parseStationId,
  StationIdSchema,
  ModemConfSchema,
} from '../src/index';

// Captured from the live network in 2022; the path can be overridden for other checkouts.
const LIVE_DIR =
  process.env.TINYGS_LIVE_PACKETS_DIR ??
  fileURLToPath(new URL('../../../fixtures/live-packets-2022', import.meta.url));

function livePackets(file: string): unknown[] {
  const body = JSON.parse(readFileSync(join(LIVE_DIR, file), 'utf8')) as { packets: unknown[] };
  return body.packets;
}

describe('PacketSchema on live packets', () => {
  it('parses every packet of packets-00.json', () => {
    const packets = livePackets('packets-00.json');
    expect(packets.length).toBeGreaterThan(0);
    for (const packet of packets) {
      const result = PacketSchema.safeParse(packet);
      expect(result.error?.issues ?? []).toEqual([]);
    }
  });

  it('parses every captured file', () => {
    const files = readdirSync(LIVE_DIR).filter((name) => name.endsWith('.json'));
    for (const file of files) {
      for (const packet of livePackets(file))
        expect(PacketSchema.safeParse(packet).success).toBe(true);
    }
  });

  it('keeps the fields of a real packet, including the arbitrary decoded content', () => {
    const packet = PacketSchema.parse(livePackets('packets-00.json')[0]);
    expect(packet).toMatchObject({
      id: '0efec018-0470-4d6f-ba3f-f2859be1d8b2',
      mode: 'LoRa',
      freq: 437.25,
      sf: 10,
      bw: 62.5,
      cr: 5,
      rxBw: null,
      satellite: 'SATLLA-2B',
      norad: 51014,
      stationNumber: 1,
    });
    expect(packet.satPos.alt).toBeCloseTo(518.298, 3);
    expect(packet.parsed?.payload?.tinygsTxPower).toBe(63);
    expect(packet.parsed?.type).toBe('Beacon');
  });

  it('accepts a CRC-error packet without a parsed key and an unrecognised one with null', () => {
    const { parsed: _parsed, ...withoutParsed } = livePackets('packets-00.json')[0] as Record<
      string,
      unknown
    >;
    const crc = PacketSchema.parse(withoutParsed);
    expect('parsed' in crc).toBe(false);
    expect(PacketSchema.parse({ ...withoutParsed, parsed: null }).parsed).toBeNull();
  });

  it('rejects wrong types', () => {
    const packet = livePackets('packets-00.json')[0] as Record<string, unknown>;
    expect(PacketSchema.safeParse({ ...packet, norad: '51014' }).success).toBe(false);
    expect(PacketSchema.safeParse({ ...packet, mode: 'GFSK' }).success).toBe(false);
    expect(PacketSchema.safeParse({ ...packet, satPos: { lat: 1, lng: 2 } }).success).toBe(false);
  });

  it('parses a packet detail with its stations', () => {
    const packet = livePackets('packets-00.json')[0] as Record<string, unknown>;
    const detail = PacketDetailSchema.parse({
      ...packet,
      stations: [
        {
          name: 'Ground_1',
          userId: 123456,
          location: [40.4, -3.7],
          distance: 1520.5,
          elevation: 22.1,
          azimuth: 301.4,
          usec_time: 1668986132325123,
          doppler: -8123.4,
          frequency_offset: 0,
          crc_error: false,
          receptionParams: { rssi: -118, snr: -9.5, frequency_error: 812 },
        },
      ],
      sunLit: true,
      eclipseDepth: -12.3,
      footPrint: 2480,
      template: null,
    });
    expect(detail.stations[0]?.userId).toBe('123456');
    expect(detail.stations[0]?.f_doppler).toBeUndefined();
  });
});

describe('stations', () => {
  const publicStation = {
    id: 'Ground_1@123456',
    name: 'Ground_1',
    userId: '123456',
    status: 1,
    satellite: 'FossaSat-2E11',
    version: 2603242,
    lastPacketTime: 1668986132325,
    lastSeen: 1668986200000,
    creationDate: 1600000000000,
    autoTune: 433,
    test: false,
    antenna: 'Dipole',
    antennaBand: [100, 960],
    location: [40.4, -3.7],
    elevation: 650,
    recordDistance: 3200.5,
    telemetryPackets: 10,
    confirmedPackets: 8,
  };

  it('defaults description and pictures for a non-owner view without owner fields', () => {
    const station = StationFullSchema.parse(publicStation);
    expect(station.description).toBe('');
    expect(station.pictures).toEqual([]);
    expect(station.local_ip).toBeUndefined();
  });

  it('requires the owner fields in the owner view', () => {
    expect(StationOwnerViewSchema.safeParse(publicStation).success).toBe(false);
    const owner = StationOwnerViewSchema.parse({
      ...publicStation,
      local_ip: '192.168.1.20',
      wifiRssi: -65,
      radioStatus: 0,
      autoUpdate: true,
      beta: false,
      tx: false,
      modem_conf: '{"mode":"LoRa","freq":436.7}',
      satnogsOptOut: false,
    });
    expect(owner.local_ip).toBe('192.168.1.20');
  });

  it('accepts auto tune 0 and null on a station, not other numbers', () => {
    expect(StationFullSchema.parse({ ...publicStation, autoTune: 0 }).autoTune).toBe(0);
    expect(StationFullSchema.parse({ ...publicStation, autoTune: null }).autoTune).toBeNull();
    expect(StationFullSchema.safeParse({ ...publicStation, autoTune: 868 }).success).toBe(false);
  });

  it('list items do not allow auto tune 0', () => {
    const item = {
      name: 'Ground_1',
      userId: '1',
      location: [0, 0],
      status: 0,
      lastSeen: null,
      lastPacketTime: null,
      version: null,
      satellite: null,
      autoTune: null,
    };
    expect(StationListItemSchema.safeParse(item).success).toBe(true);
    expect(StationListItemSchema.safeParse({ ...item, autoTune: 0 }).success).toBe(false);
  });
});

describe('station ids', () => {
  it('formats and parses {name}@{userId}', () => {
    expect(formatStationId('Ground_1', 123)).toBe('Ground_1@123');
    expect(parseStationId('Ground_1@123')).toEqual({ name: 'Ground_1', userId: '123' });
  });
  it.each(['Ground_1', 'Ground 1@123', 'Ground_1@abc', '@123', 'a@1@2', 'Ground-1@123'])(
    'rejects %j',
    (id) => {
      expect(parseStationId(id)).toBeNull();
      expect(StationIdSchema.safeParse(id).success).toBe(false);
    },
  );
});

describe('modem configuration', () => {
  it('parses the protocol examples and keeps unknown keys', () => {
    const lora = ModemConfSchema.parse({
      mode: 'LoRa',
      freq: 401.7,
      bw: 125,
      sf: 11,
      cr: 8,
      sw: 18,
      pwr: 5,
      cl: 120,
      pl: 8,
      gain: 0,
      crc: true,
      fldro: 1,
      sat: 'FossaSat-2E11',
      NORAD: 52750,
    });
    expect(lora.mode).toBe('LoRa');
    const fsk = ModemConfSchema.parse({
      mode: 'FSK',
      freq: 436.9,
      br: 9.6,
      fd: 4.8,
      fsw: [147, 11, 81, 222],
      ook: 2,
      len: 74,
      pl: 32,
      pwr: 5,
      sat: 'X',
      NORAD: 12345,
      swCrc: { poly: 4129 },
    });
    expect(fsk).toMatchObject({ mode: 'FSK', swCrc: { poly: 4129 } });
  });
  it('rejects an unknown mode or a missing frequency', () => {
    expect(ModemConfSchema.safeParse({ mode: 'GFSK', freq: 436 }).success).toBe(false);
    expect(ModemConfSchema.safeParse({ mode: 'LoRa' }).success).toBe(false);
  });
});
