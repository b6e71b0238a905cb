import { crc16CcittFalse } from '../crc16';
import { DEMO_FRAME_BYTES, DEMO_GPS_BYTES } from '../demo-encoder';
import { TinygsDemo } from '../generated/tinygs_demo';
import { parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

export const tinygsDemo: FormatDecoder = {
  id: 'tinygs_demo',
  decode(frame, satelliteName) {
    const parsed = parseStruct(TinygsDemo, frame);
    const t = parsed.payload;
    // Frames are fixed-size and checksummed: trailing bytes or a bad CRC mean a damaged frame.
    const expectedBytes = DEMO_FRAME_BYTES + (t.gps === undefined ? 0 : DEMO_GPS_BYTES);
    if (frame.length !== expectedBytes) return null;
    if (crc16CcittFalse(frame.subarray(0, expectedBytes - 2)) !== parsed.crc16) return null;
    // Fields added to the struct's JSON in place: an object spread here cost several times the
    // whole parse (thousands of frames a second go through this).
    const payload = structToJson(t);
    payload.tinygsBatVoltage = t.batteryMv;
    payload.tinygsTemp = t.temperatureDc / 10;
    payload.tinygsTxPower = t.txPowerMw;
    payload.tinygsChargeCurrent = t.solarCurrentMa;
    payload.tinygsUptime = t.uptimeS;
    payload.tinygsTxFrames = parsed.header.frameCounter;
    payload.tinygsSatellite = satelliteName;
    if (t.gps !== undefined) {
      payload.tinygsLat = t.gps.latE7 / 1e7;
      payload.tinygsLng = t.gps.lngE7 / 1e7;
      payload.tinygsAlt = t.gps.altM;
    }
    return {
      header: structToJson(parsed.header),
      payload,
      telemetry: true,
      tinygsSatellite: satelliteName,
      type: 'Beacon',
    };
  },
};
