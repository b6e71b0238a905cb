// One byte vector per real format (taken from captured frames, some bytes changed on purpose),
// checked field by field against what the satellite sent.
import { describe, expect, it } from 'vitest';
import { decodeFrame, type JsonObject } from '../src/index';

function hex(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
}

function withByte(frame: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = frame.slice();
  copy[offset] = value;
  return copy;
}

function payloadOf(decoded: JsonObject | null): JsonObject {
  const payload = decoded?.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new Error(`no payload in ${JSON.stringify(decoded)}`);
  }
  return payload;
}

const NORBY = hex(`
  8effffffff0a0601c9c09800000000f10f0000488b43be280142524b204d57205645523a3035615f3031000000
  00000e0100fd07000000021e0008bb0a7ff17d0200000000000000000000000000000000000000000000002a00
  fcffceffa9fc0000000000001804040f0f0f0f0f0f00fe003ffc30200001370e0c000c000094f60000c8061515
  120060103d20e66d`);

describe('norby', () => {
  it('decodes the header, the BRK title with its trailing bytes and the power system', () => {
    const decoded = decodeFrame('Norbi', NORBY);
    expect(decoded?.header).toEqual({
      length: 142,
      receiverAddress: 4294967295,
      transmitterAddress: [10, 6, 1, 201],
      transactionNumber: 39104,
      reserved: [0, 0],
      msgTypeId: 0,
    });
    expect(payloadOf(decoded)).toMatchObject({
      frameStartMark: [241, 15],
      frameNumber: 35656,
      brkTitle: 'BRK MW VER:05a_01\u0000\u0000\u0000\u0000\u0000\u000e\u0001',
      brkRestartsCountActive: 2045,
      brkLastReceivedPacketRssiActive: 127,
      brkLastReceivedPacketSnrActive: -15,
      sesChargeLevelMAh: 14081,
      sesTotalChargingPower: -2412,
      sesVoltage: 8253,
      crc16: 28134,
      tinygsTxPower: 2000,
      tinygsTemp: 30,
      tinygsBatCap: 14081,
      tinygsChargePower: -2412,
      tinygsMainVoltage: 8253,
    });
  });

  it('reads the radio temperature as signed', () => {
    const payload = payloadOf(decodeFrame('Norbi', withByte(NORBY, 56, 0xf6)));
    expect(payload.brkTempActive).toBe(-10);
    expect(payload.tinygsTemp).toBe(-10);
  });

  it('does not decode a truncated frame', () => {
    expect(decodeFrame('Norbi', NORBY.subarray(0, 142))).toBeNull();
  });
});

const SATLLA_BEACON = hex('b2000600ed57550fe4fffcfd00000000000000000000');
const SATLLA_TELEMETRY = hex(`
  b2f6003299577add00061c0b3b000000000000000000000000000000000a00fafff7ffccda6ff7f6f8ad08fcfc57
  52540fe4ffb605f50492ff000000000000000000000000`);

describe('satlla_2b', () => {
  it('decodes the short beacon (message type 6)', () => {
    const decoded = decodeFrame('SATLLA-2B', SATLLA_BEACON);
    expect(decoded?.header).toEqual({ localAddress: 178, bytePos2: 0, msgTypeId: 6 });
    expect(payloadOf(decoded)).toEqual({
      msgReceived: 0,
      msgIndex: 22509,
      batteryVolts: 3925,
      batteryCurrent: -28,
      snsNtc1: -4,
      snsNtc2: -3,
      sdOutbox: 0,
      tinygsTxPower: 63,
      tinygsSatellite: 'SATLLA-2B',
      tinygsTemp: -4,
      tinygsTemp2: -3,
      tinygsLoadCurrent: -28,
      tinygsBatVoltage: 3925,
      tinygsTxFrames: 22509,
      localAddress: 178,
    });
  });

  it('decodes the full telemetry (message type 0) with hundredths scaled', () => {
    const payload = payloadOf(decodeFrame('SATLLA-2B', SATLLA_TELEMETRY));
    expect(payload).toMatchObject({
      dateTimeT: [6, 28, 11, 59, 0],
      snsMx: -9524,
      calcSnsMx: -95.24,
      calcSnsGx: 0.1,
      snsBmpTempC: 2221,
      tinygsTemp3: 22.21,
      batteryPower: 65426,
      destination: 246,
    });
  });

  it('does not decode a message type without a published layout', () => {
    expect(decodeFrame('SATLLA-2B', withByte(SATLLA_BEACON, 2, 7))).toBeNull();
  });
});

function fossaFrame(prefix: string, temperatureC: number, sensorFill: number): Uint8Array {
  const frame = new Uint8Array(103);
  frame.set(Buffer.from(prefix, 'ascii'), 0);
  frame[5] = 1;
  new DataView(frame.buffer).setFloat32(6, temperatureC, true);
  frame[10] = 16;
  frame.fill(sensorFill, 11, 39);
  return frame;
}

describe('fossasat_2e', () => {
  it('decodes the beacon; sensors that are off (all ones) become null floats', () => {
    const decoded = decodeFrame('FossaSat-2E11', fossaFrame('FO011', -6.875, 0xff));
    expect(decoded).toEqual({
      fo0: [70, 79, 48],
      magic: '11',
      payload: {
        frameId: 1,
        tinygsTemp: -6.875,
        eclipseFlag: 16,
        imuGyroX: null,
        imuGyroY: null,
        imuGyroZ: null,
        gpsTime: 4294967295,
        gpsAltitude: null,
        gpsLatitude: null,
        gpsLongitude: null,
        tinygsSatellite: 'FossaSat-2E11',
        tinygsTxPower: 158,
      },
      frameId: 1,
      type: 'Beacon',
      telemetry: true,
    });
  });

  it('serves FossaSat-2E1 with the same format and names the satellite it was given', () => {
    expect(payloadOf(decodeFrame('FossaSat-2E1', fossaFrame('FO001', 20, 0))).tinygsSatellite).toBe(
      'FossaSat-2E1',
    );
  });

  it('does not decode a frame without the FO0 prefix', () => {
    expect(decodeFrame('FossaSat-2E8', fossaFrame('FO108', 1, 0))).toBeNull();
  });
});

const FEES = hex(
  '00fee52fb0f3818b00ff0400000100000000f807db0bcf08750075000e0071007300020170019b00af00a200ba2e34',
);

describe('fees', () => {
  it('calibrates ADC counts against the 2.5 V reference', () => {
    const payload = payloadOf(decodeFrame('FEES', FEES));
    expect(payload).toMatchObject({
      vbat: 2255,
      vacd2v5: 3035,
      timestamp: 9142771,
      unknown14: 13358,
    });
    expect(payload.coefficient).toBeCloseTo(2.5 / 3035, 15);
    expect(payload.vBat).toBeCloseTo(((2255 * 2.5) / 3035) * 2, 12);
    expect(payload.tinygsBatVoltage).toBeCloseTo(3714.99176, 4);
    expect(payload.tinygsLoadCurrent).toBeCloseTo(212.52059, 4);
  });

  it('reports null calibrated values, not an error, when the reference reads zero', () => {
    const frame = withByte(withByte(FEES, 20, 0), 21, 0);
    const payload = payloadOf(decodeFrame('FEES', frame));
    expect(payload.coefficient).toBeNull();
    expect(payload.tinygsBatVoltage).toBeNull();
    expect(payload.vbat).toBe(2255);
  });
});

const POLYTECH = hex(`
  b6fba8407220b4351026846fb50b93efc463b09d5cbb057066156b1f6a8288e6f1226687277ec4aba1afa560
  0d2eae28b4a19cd7181d36`);

describe('polytech_universe_1', () => {
  it('joins 24-bit counters and applies the power-system units', () => {
    const payload = payloadOf(decodeFrame('Polytech_Universe-1', POLYTECH.subarray(0, 42)));
    expect(payload).toMatchObject({
      satRSSI: -15121,
      tempBatMin: -15,
      tinygsSatRXtime: 9636789,
      tinygsUptime: 6069680,
      tinygsVbus: 5600,
      tinygsIbus: 5100,
      tinygsLoadPower: 28560,
      tinygsChargeCurrent: 8040,
      tinygsSolarPower: 39396,
      tinygsBatCap: 2100,
      tinygsBatVoltage: 2854,
    });
  });

  it('decodes longer frames from their first 42 bytes and rejects shorter ones', () => {
    expect(decodeFrame('Polytech_Universe-1', POLYTECH)).toEqual(
      decodeFrame('Polytech_Universe-1', POLYTECH.subarray(0, 42)),
    );
    expect(decodeFrame('Polytech_Universe-1', POLYTECH.subarray(0, 41))).toBeNull();
  });
});
