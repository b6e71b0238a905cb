import { lengthAtLeast, magic, range } from '../checks';
import { PolytechUniverse1 } from '../generated/polytech_universe_1';
import { parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

/** Transmitter power the network reports for Polytech_Universe-1, mW. */
const TX_POWER_MW = 800;
// Units of the raw power-system fields.
const BUS_MV_PER_UNIT = 50;
const BUS_MA_PER_UNIT = 50;
const SOLAR_MV_PER_UNIT = 25;
const SOLAR_MA_PER_UNIT = 20;
const CAPACITY_MAH_PER_UNIT = 100;
/** Header and telemetry; longer frames are decoded from their first 42 bytes. */
const FRAME_BYTES = 42;
/** Network id of the satellite's link, in the header's first byte. */
const NET_ID = 0x01;
/** The satellite's id, third header byte. */
const SAT_ID = 0x7e;
/** The header's length byte: the 36 bytes of telemetry. */
const TELEMETRY_BYTES = 36;

/** The satellite splits 24-bit counters into a low u16 and a high u8. */
function join24(low16: number, high8: number): number {
  return low16 + high8 * 0x10000;
}

export const polytechUniverse1: FormatDecoder = {
  id: 'polytech_universe_1',
  decode(frame, satelliteName) {
    const parsed = parseStruct(PolytechUniverse1, frame);
    const t = parsed.payload;
    const vbusMv = t.vBus * BUS_MV_PER_UNIT;
    const ibusMa = t.iBus * BUS_MA_PER_UNIT;
    const solarMv = t.vsolarcell * SOLAR_MV_PER_UNIT;
    const solarMa =
      (t.isolarcell1 + t.isolarcell2 + t.isolarcell3 + t.isolarcell4) * SOLAR_MA_PER_UNIT;
    return {
      header: structToJson(parsed.header),
      payload: {
        ...structToJson(t),
        tinygsLoadPower: (vbusMv * ibusMa) / 1000,
        tinygsBatCap: t.batCap * CAPACITY_MAH_PER_UNIT,
        tinygsUptime: join24(t.satUptimeB12, t.satUptimeB3),
        tinygsTxPower: TX_POWER_MW,
        tinygsSatellite: satelliteName,
        tinygsSolarVoltage: solarMv,
        tinygsTemp: t.tempBatMin,
        tinygsSolarPower: (solarMv * solarMa) / 1000,
        tinygsSatRXtime: join24(t.satRXtimeB12, t.satRXtimeB3),
        tinygsChargeCurrent: solarMa,
        tinygsVbus: vbusMv,
        tinygsIbus: ibusMa,
        // `records` carries the battery voltage in tenths of a millivolt.
        tinygsBatVoltage: Math.floor(t.records / 10),
      },
      telemetry: true,
      tinygsSatellite: satelliteName,
      type: 'Beacon',
    };
  },
  checks: {
    txPowerMw: TX_POWER_MW,
    frame: [
      lengthAtLeast(FRAME_BYTES),
      magic(0, [NET_ID]),
      magic(2, [SAT_ID]),
      magic(4, [TELEMETRY_BYTES]),
    ],
    // `records` is not ranged: what the network shows from it (about 100 mV) is not a voltage.
    fields: [range('payload.tempBatMin', -40, 85), range('payload.tempBatMax', -40, 85)],
  },
};
