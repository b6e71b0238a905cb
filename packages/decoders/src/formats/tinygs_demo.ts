import { crc16CcittFalse } from '../crc16';
import { DEMO_FRAME_BYTES, DEMO_GPS_BYTES } from '../demo-encoder';
import { TinygsDemo } from '../generated/tinygs_demo';
import { parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder, JsonObject } from '../types';

export const tinygsDemo: FormatDecoder = {
  id: 'tinygs_demo',
  decode(frame, satelliteName) {
    const parsed = parseStruct(TinygsDemo, frame);
    const t = parsed.payload;
    // Frames are fixed-size and checksummed: trailing bytes or a bad CRC mean a damaged frame.
    const expectedBytes = DEMO_FRAME_BYTES + (t.gps === undefined ? 0 : DEMO_GPS_BYTES);
    if (frame.length !== expectedBytes) return null;
    if (crc16CcittFalse(frame.subarray(0, expectedBytes - 2)) !== parsed.crc16) return null;
    const position: JsonObject =
      t.gps === undefined
        ? {}
        : { tinygsLat: t.gps.latE7 / 1e7, tinygsLng: t.gps.lngE7 / 1e7, tinygsAlt: t.gps.altM };
    return {
      header: structToJson(parsed.header),
      payload: {
        ...structToJson(t),
        tinygsBatVoltage: t.batteryMv,
        tinygsTemp: t.temperatureDc / 10,
        tinygsTxPower: t.txPowerMw,
        tinygsChargeCurrent: t.solarCurrentMa,
        tinygsUptime: t.uptimeS,
        tinygsTxFrames: parsed.header.frameCounter,
        tinygsSatellite: satelliteName,
        ...position,
      },
      telemetry: true,
      tinygsSatellite: satelliteName,
      type: 'Beacon',
    };
  },
};
