import { Satlla2b } from '../generated/satlla_2b';
import { parseStruct, structToJson } from '../kaitai';
import type { DecodedFrame, FormatDecoder, JsonObject } from '../types';

/** Transmitter power the network reports for every SATLLA-2B frame, mW. */
const TX_POWER_MW = 63;

export const satlla2b: FormatDecoder = {
  id: 'satlla_2b',
  decode(frame, satelliteName) {
    const parsed = parseStruct(Satlla2b, frame);
    const { header, payload } = parsed;
    if (payload === undefined) return null; // message type without a published layout
    const common: JsonObject = {
      tinygsTxPower: TX_POWER_MW,
      tinygsSatellite: satelliteName,
      tinygsTemp: payload.snsNtc1,
      tinygsTemp2: payload.snsNtc2,
      tinygsLoadCurrent: payload.batteryCurrent,
      tinygsBatVoltage: payload.batteryVolts,
      tinygsTxFrames: payload.msgIndex,
      localAddress: header.localAddress,
    };
    const extra: JsonObject =
      payload instanceof Satlla2b.Telemetry
        ? {
            // Sensor fields are hundredths of their unit.
            tinygsTemp3: payload.snsBmpTempC / 100,
            calcSnsGx: payload.snsGx / 100,
            calcSnsGy: payload.snsGy / 100,
            calcSnsGz: payload.snsGz / 100,
            calcSnsMx: payload.snsMx / 100,
            calcSnsMy: payload.snsMy / 100,
            calcSnsMz: payload.snsMz / 100,
            destination: header.bytePos2,
          }
        : {};
    const decoded: DecodedFrame = {
      header: structToJson(header),
      payload: { ...structToJson(payload), ...common, ...extra },
      telemetry: true,
      tinygsSatellite: satelliteName,
      type: 'Beacon',
    };
    return decoded;
  },
};
