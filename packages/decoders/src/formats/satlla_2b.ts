import { frameCheck, magic, range } from '../checks';
import { Satlla2b } from '../generated/satlla_2b';
import { parseStruct, structToJson } from '../kaitai';
import type { DecodedFrame, FormatDecoder, JsonObject } from '../types';

/** Transmitter power the network reports for every SATLLA-2B frame, mW. */
const TX_POWER_MW = 63;
/** The satellite's own address, the header's first byte. */
const LOCAL_ADDRESS = 0xb2;
/** Frame length of each published message type (header byte 2). */
const LENGTH_OF_TYPE: Readonly<Record<number, number>> = { 0: 69, 6: 22 };

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
  checks: {
    txPowerMw: TX_POWER_MW,
    frame: [
      magic(0, [LOCAL_ADDRESS]),
      frameCheck('length', (frame) => {
        const type = frame[2];
        const expected = type === undefined ? undefined : LENGTH_OF_TYPE[type];
        // Unpublished message types are not refused here: they decode to nothing.
        if (expected === undefined || frame.length === expected) return null;
        return `${frame.length} bytes, message type ${type} has ${expected}`;
      }),
    ],
    fields: [
      range('payload.tinygsBatVoltage', 3000, 4500),
      range('payload.tinygsTemp', -40, 85),
      range('payload.tinygsTemp2', -40, 85),
    ],
  },
};
