import { lengthIs, magic, range } from '../checks';
import { Fossasat2e } from '../generated/fossasat_2e';
import { byteArray, parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

/** Transmitter power the network reports for the FossaSat-2E family, mW. */
const TX_POWER_MW = 158;

/** `FO0` and the satellite's two-digit number: `FO012` for FossaSat-2E12, `FO008` for 2E8. */
function fossasatCallsign(satelliteName: string): string {
  const number = /(\d+)$/.exec(satelliteName)?.[1] ?? '';
  return `FO0${number.padStart(2, '0')}`;
}

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
  checks: {
    txPowerMw: TX_POWER_MW,
    frame: [lengthIs(103), magic(0, fossasatCallsign)],
    // The published part carries no CRC; the board temperature is the one field always on.
    fields: [range('payload.tinygsTemp', -60, 100)],
  },
};
