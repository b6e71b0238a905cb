import { describe, expect, it } from 'vitest';
import {
  FilterCommandSchema,
  LAST_WILL_PAYLOAD,
  PingPayloadSchema,
  RxPayloadSchema,
  SatCommandSchema,
  WelcomePayloadSchema,
  bytesToBase64,
  globalCommandTopic,
  lastWillTopic,
  latin1ToBytes,
  parseCommandAck,
  parseStationTopic,
  stationTopic,
} from '../src/index';
import { fskRx, loraRx } from './helpers';

describe('topics', () => {
  it('builds and parses per-station topics', () => {
    const topic = stationTopic('123456', 'Ground_1', 'tele', 'rx');
    expect(topic).toBe('tinygs/123456/Ground_1/tele/rx');
    expect(parseStationTopic(topic)).toEqual({
      userId: '123456',
      station: 'Ground_1',
      kind: 'tele',
      name: 'rx',
    });
    expect(parseStationTopic(stationTopic(7, 'S_1', 'cmnd', 'begine'))?.kind).toBe('cmnd');
  });
  it.each([
    'tinygs/global/cmnd/reset',
    'tinygs/123/Ground_1/tele',
    'tinygs/123/Ground_1/tele/rx/extra',
    'other/123/Ground_1/tele/rx',
    'tinygs/123/Ground_1/info/rx',
    'tinygs/123/+/tele/rx',
    'tinygs/123/Ground_1/tele/#',
  ])('does not take %j for a station topic', (topic) => {
    expect(parseStationTopic(topic)).toBeNull();
  });
  it('names the last will and global commands', () => {
    expect(lastWillTopic(123, 'Ground_1')).toBe('tinygs/123/Ground_1/tele/status');
    expect(LAST_WILL_PAYLOAD).toBe('0');
    expect(globalCommandTopic('update')).toBe('tinygs/global/cmnd/update');
  });
});

describe('rx payload', () => {
  it('parses a LoRa frame and keeps keys newer firmware adds', () => {
    const rx = RxPayloadSchema.parse({ ...loraRx, futureField: 42 });
    expect(rx.mode).toBe('LoRa');
    expect(rx).toMatchObject({ sf: 10, futureField: 42 });
    expect(rx.f_doppler).toBeUndefined();
  });
  it('parses an FSK frame with f_doppler', () => {
    const rx = RxPayloadSchema.parse(fskRx);
    expect(rx.mode === 'FSK' && rx.freqdev).toBe(4.8);
    expect(rx.f_doppler).toBe(-9120);
  });
  it('parses a CRC error frame', () => {
    const data = bytesToBase64(latin1ToBytes('Error_CRC'));
    expect(RxPayloadSchema.parse({ ...loraRx, crc_error: true, data }).crc_error).toBe(true);
  });
  it.each([
    ['rssi as text', { rssi: '-121.5' }],
    ['crc_error as number', { crc_error: 0 }],
    ['NORAD as text', { NORAD: '46494' }],
    ['data not base64', { data: 'not base64!' }],
    ['location of one number', { station_location: [40.4] }],
    ['missing frequency', { frequency: undefined }],
    ['unknown mode', { mode: 'GFSK' }],
    ['noisy as text', { noisy: 'false' }],
  ])('rejects a LoRa frame with %s', (_label, change) => {
    expect(RxPayloadSchema.safeParse({ ...loraRx, ...change }).success).toBe(false);
  });
  it('rejects an FSK frame without its FSK fields or with LoRa-only fields only', () => {
    const { bitrate: _bitrate, ...withoutBitrate } = fskRx;
    expect(RxPayloadSchema.safeParse(withoutBitrate).success).toBe(false);
    expect(RxPayloadSchema.safeParse({ ...loraRx, mode: 'FSK' }).success).toBe(false);
  });
});

describe('other station payloads', () => {
  it('parses a welcome with modem_conf as text', () => {
    const welcome = WelcomePayloadSchema.parse({
      station_location: [40.4, -3.7],
      tx: true,
      time: 1668986101,
      version: 2603242,
      git_version: 'abc123',
      sat: 'Norbi',
      ip: '192.168.1.20',
      modem_conf: '{"mode":"LoRa","freq":436.703}',
      board: 1,
      mac: 'A1B2C3D4E5F6',
      seconds: 12,
      Vbat: 4.1,
      Mem: 120000,
      chip: 'ESP32-D0WD',
      radioChip: 2,
    });
    expect(welcome.version).toBe(2603242);
    expect(
      WelcomePayloadSchema.safeParse({ station_location: [0, 0], tx: 'yes', version: 1 }).success,
    ).toBe(false);
  });
  it('parses a ping', () => {
    expect(
      PingPayloadSchema.parse({
        Vbat: 4.1,
        Mem: 1,
        MinMem: 1,
        MaxBlk: 1,
        RSSI: -67,
        radio: 0,
        InstRSSI: -100,
      }).RSSI,
    ).toBe(-67);
    expect(PingPayloadSchema.safeParse({ RSSI: '-67' }).success).toBe(false);
  });
  it('checks command payloads and acks', () => {
    expect(SatCommandSchema.parse(['Norbi', 46494])).toEqual(['Norbi', 46494]);
    expect(SatCommandSchema.safeParse(['Norbi', '46494']).success).toBe(false);
    expect(FilterCommandSchema.safeParse([2, 0, 0x8e, 0xff]).success).toBe(true);
    expect(FilterCommandSchema.safeParse([3, 0, 0x8e, 0xff]).success).toBe(false);
    expect(parseCommandAck(Uint8Array.from([0, 0]))).toBe(0);
    expect(parseCommandAck(Uint8Array.from([0xfe, 0xff]))).toBe(65534);
    expect(parseCommandAck(Uint8Array.from([1]))).toBeNull();
  });
});
