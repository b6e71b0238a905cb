import { Fossasat2e } from '../generated/fossasat_2e';
import { byteArray, parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

/** Transmitter power the network reports for the FossaSat-2E family, mW. */
const TX_POWER_MW = 158;

export const fossasat2e: FormatDecoder = {
  id: 'fossasat_2e',
  decode(frame, satelliteName) {
    const parsed = parseStruct(Fossasat2e, frame);
    return {
      fo0: byteArray(parsed.fo0),
      magic: parsed.magic,
      payload: {
        ...structToJson(parsed.payload),
        tinygsSatellite: satelliteName,
        tinygsTxPower: TX_POWER_MW,
      },
      frameId: parsed.payload.frameId,
      type: 'Beacon',
      telemetry: true,
    };
  },
};
