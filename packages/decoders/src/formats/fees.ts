import { crc16, lengthIs, magic, range } from '../checks';
import { Fees } from '../generated/fees';
import { finiteOrNull, parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

/** Transmitter power the network reports for FEES, mW. */
const TX_POWER_MW = 500;
/** Volts of the reference the ADC reads as `vacd2v5`. */
const REFERENCE_V = 2.5;
/** Battery and solar bus voltages are measured through a 1/2 divider. */
const DIVIDER = 2;
/** The three header bytes of every FEES beacon. */
const HEADER = [0x00, 0xfe, 0xe5];

export const fees: FormatDecoder = {
  id: 'fees',
  decode(frame) {
    const parsed = parseStruct(Fees, frame);
    const raw = parsed.payload;
    // Volts (or amperes) per ADC count; a zero reference reading gives null values, not a throw.
    const coefficient = REFERENCE_V / raw.vacd2v5;
    const vBat = raw.vbat * coefficient * DIVIDER;
    const vSol = raw.vsol * coefficient * DIVIDER;
    const iLoad = raw.iload * coefficient;
    const iCharger = raw.icharger * coefficient;
    const calibrated = {
      coefficient,
      vBat,
      vSol,
      vPxCell: raw.pxCellV * coefficient,
      vMxCell: raw.mxCellV * coefficient,
      vPyCell: raw.pyCellV * coefficient,
      vPzCell: raw.pzCellV * coefficient,
      iLoad,
      iCharger,
      iPxCell: raw.pxCellI * coefficient,
      iMxCell: raw.mxCellI * coefficient,
      iPyCell: raw.pyCellI * coefficient,
      tinygsBatVoltage: vBat * 1000,
      tinygsSolarVoltage: vSol * 1000,
      tinygsLoadCurrent: iLoad * 1000,
      tinygsChargeCurrent: iCharger * 1000,
    };
    return {
      header: structToJson(parsed.header),
      payload: {
        ...structToJson(raw),
        ...Object.fromEntries(
          Object.entries(calibrated).map(([key, value]) => [key, finiteOrNull(value)]),
        ),
        tinygsTimestamp: raw.timestamp,
        tinygsTxPower: TX_POWER_MW,
      },
      type: 'Beacon',
      telemetry: true,
    };
  },
  checks: {
    txPowerMw: TX_POWER_MW,
    frame: [lengthIs(47), magic(0, HEADER), crc16('CRC-16/CCITT-FALSE')],
    fields: [
      // Counts of a 12-bit ADC; the reference reads about 3000, and every value is scaled by it.
      range('payload.vacd2v5', 2400, 3600),
      range('payload.tinygsBatVoltage', 2500, 4500),
    ],
  },
};
