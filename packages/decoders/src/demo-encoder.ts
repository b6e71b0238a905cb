// Encoder for the tinygs_demo format (ksy/tinygs_demo.ksy), used by the simulator to make the
// frames its demo satellites and balloons transmit.
import { crc16CcittFalse } from './crc16';

/** Length of a tinygs_demo frame without a GPS fix, CRC included. */
export const DEMO_FRAME_BYTES = 21;
/** Extra bytes when the frame carries a GPS fix. */
export const DEMO_GPS_BYTES = 12;

const MAGIC = [0x54, 0x47, 0x44]; // "TGD"
const VERSION = 1;

export interface DemoGpsFix {
  latDeg: number;
  lngDeg: number;
  altM: number;
}

export interface DemoTelemetry {
  /** Wraps at 65536. */
  frameCounter: number;
  batteryMv: number;
  /** Sent with 0.1 degree resolution. */
  temperatureC: number;
  txPowerMw: number;
  solarCurrentMa: number;
  uptimeS: number;
  safeMode?: boolean;
  eclipse?: boolean;
  /** Balloons and GPS-equipped satellites; latitude and longitude are sent to 1e-7 degrees. */
  gps?: DemoGpsFix | null;
}

/**
 * Encodes demo telemetry. Values are rounded to the field resolution and clamped to the field
 * range (a simulated value out of range must not make a frame unreadable); non-finite values are
 * a caller bug and throw a RangeError.
 */
export function encodeDemoFrame(values: DemoTelemetry): Uint8Array {
  const gps = values.gps ?? null;
  const length = DEMO_FRAME_BYTES + (gps === null ? 0 : DEMO_GPS_BYTES);
  const frame = new Uint8Array(length);
  const view = new DataView(frame.buffer);
  frame.set(MAGIC, 0);
  view.setUint8(3, VERSION);
  view.setUint16(4, wrapU16(whole('frameCounter', values.frameCounter)), true);
  view.setUint16(6, clamp(whole('batteryMv', values.batteryMv), 0, 0xffff), true);
  view.setInt16(8, clamp(whole('temperatureC', values.temperatureC * 10), -0x8000, 0x7fff), true);
  view.setUint16(10, clamp(whole('txPowerMw', values.txPowerMw), 0, 0xffff), true);
  view.setInt16(12, clamp(whole('solarCurrentMa', values.solarCurrentMa), -0x8000, 0x7fff), true);
  view.setUint32(14, clamp(whole('uptimeS', values.uptimeS), 0, 0xffffffff), true);
  // Bit fields are little-endian in the .ksy: bit 0 is the first flag.
  const flags = (values.safeMode ? 1 : 0) | (values.eclipse ? 2 : 0) | (gps === null ? 0 : 4);
  view.setUint8(18, flags);
  if (gps !== null) {
    view.setInt32(
      19,
      clamp(whole('gps.latDeg', gps.latDeg * 1e7), -900_000_000, 900_000_000),
      true,
    );
    view.setInt32(
      23,
      clamp(whole('gps.lngDeg', gps.lngDeg * 1e7), -1_800_000_000, 1_800_000_000),
      true,
    );
    view.setInt32(27, clamp(whole('gps.altM', gps.altM), -0x80000000, 0x7fffffff), true);
  }
  view.setUint16(length - 2, crc16CcittFalse(frame.subarray(0, length - 2)), true);
  return frame;
}

function whole(name: string, value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`demo telemetry ${name} must be finite`);
  return Math.round(value);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function wrapU16(value: number): number {
  return ((value % 0x10000) + 0x10000) % 0x10000;
}
