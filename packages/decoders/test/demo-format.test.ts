import { describe, expect, it } from 'vitest';
import {
  DEMO_FRAME_BYTES,
  DEMO_GPS_BYTES,
  decodeFrame,
  encodeDemoFrame,
  registerSatellite,
  type DemoTelemetry,
  type JsonObject,
} from '../src/index';

registerSatellite('Demo-Sat-1', 'tinygs_demo');
registerSatellite('Demo-Balloon-1', 'tinygs_demo');

const SATELLITE: DemoTelemetry = {
  frameCounter: 4242,
  batteryMv: 3987,
  temperatureC: -12.34,
  txPowerMw: 100,
  solarCurrentMa: -15,
  uptimeS: 86_400 * 3,
  eclipse: true,
};

function payloadOf(decoded: JsonObject | null): JsonObject {
  const payload = decoded?.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new Error(`no payload in ${JSON.stringify(decoded)}`);
  }
  return payload;
}

describe('tinygs_demo format', () => {
  it('decodes what the encoder wrote, with the normalised fields', () => {
    const frame = encodeDemoFrame(SATELLITE);
    expect(frame).toHaveLength(DEMO_FRAME_BYTES);
    const decoded = decodeFrame('Demo-Sat-1', frame);
    expect(decoded).toMatchObject({
      header: { magic: [84, 71, 68], version: 1, frameCounter: 4242 },
      telemetry: true,
      tinygsSatellite: 'Demo-Sat-1',
      type: 'Beacon',
    });
    expect(payloadOf(decoded)).toEqual({
      batteryMv: 3987,
      temperatureDc: -123,
      txPowerMw: 100,
      solarCurrentMa: -15,
      uptimeS: 259_200,
      safeMode: false,
      eclipse: true,
      hasGps: false,
      reservedFlags: 0,
      tinygsBatVoltage: 3987,
      tinygsTemp: -12.3,
      tinygsTxPower: 100,
      tinygsChargeCurrent: -15,
      tinygsUptime: 259_200,
      tinygsTxFrames: 4242,
      tinygsSatellite: 'Demo-Sat-1',
    });
  });

  it('carries a balloon GPS fix to 1e-7 degrees', () => {
    const frame = encodeDemoFrame({
      ...SATELLITE,
      gps: { latDeg: 40.4291234, lngDeg: -4.2491234, altM: 31_250 },
    });
    expect(frame).toHaveLength(DEMO_FRAME_BYTES + DEMO_GPS_BYTES);
    const payload = payloadOf(decodeFrame('Demo-Balloon-1', frame));
    expect(payload).toMatchObject({
      hasGps: true,
      gps: { latE7: 404_291_234, lngE7: -42_491_234, altM: 31_250 },
      tinygsAlt: 31_250,
    });
    expect(payload.tinygsLat).toBeCloseTo(40.4291234, 7);
    expect(payload.tinygsLng).toBeCloseTo(-4.2491234, 7);
  });

  it('rejects a frame with a flipped bit, a truncated or an extended frame', () => {
    const frame = encodeDemoFrame(SATELLITE);
    const flipped = frame.slice();
    flipped[7] = (flipped[7] ?? 0) ^ 0x01;
    expect(decodeFrame('Demo-Sat-1', flipped)).toBeNull();
    expect(decodeFrame('Demo-Sat-1', frame.subarray(0, frame.length - 1))).toBeNull();
    expect(decodeFrame('Demo-Sat-1', Uint8Array.from([...frame, 0]))).toBeNull();
  });

  it('wraps the frame counter and clamps values to their fields', () => {
    const payload = payloadOf(
      decodeFrame(
        'Demo-Sat-1',
        encodeDemoFrame({
          ...SATELLITE,
          frameCounter: 65_536 + 7,
          batteryMv: -5,
          temperatureC: 9999,
          txPowerMw: 1e9,
        }),
      ),
    );
    expect(payload).toMatchObject({
      tinygsTxFrames: 7,
      batteryMv: 0,
      temperatureDc: 32_767,
      txPowerMw: 65_535,
    });
  });

  it('refuses non-finite values', () => {
    expect(() => encodeDemoFrame({ ...SATELLITE, batteryMv: Number.NaN })).toThrow(RangeError);
  });
});
