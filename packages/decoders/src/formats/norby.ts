import { crc16, lengthByte, lengthIs, magic, range } from '../checks';
import { Norby } from '../generated/norby';
import { parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

/** Transmitter power the network shows for Norby, mW (the radio's usual 2 W). */
const TX_POWER_MW = 2000;
/** The link header (length, addresses, transaction, message type) is outside the beacon's CRC. */
const LINK_HEADER_BYTES = 15;
/** Link addresses after the length byte: receiver 0xFFFFFFFF (everyone), transmitter Norby. */
const ADDRESSES = [0xff, 0xff, 0xff, 0xff, 0x0a, 0x06, 0x01, 0xc9];
/** After the transaction number: two reserved zero bytes and message type 0, the beacon. */
const BEACON_TYPE = [0, 0, 0, 0];

export const norby: FormatDecoder = {
  id: 'norby',
  decode(frame) {
    const parsed = parseStruct(Norby, frame);
    const beacon = parsed.payload;
    return {
      header: structToJson(parsed.header),
      payload: {
        ...structToJson(beacon),
        tinygsLoadPower: beacon.sesTotalPowerLoad,
        tinygsBatCap: beacon.sesChargeLevelMAh,
        // The radio reports its power in watts; the network's normalised field is milliwatts.
        tinygsTxPower: beacon.brkTransmitterPowerActive * 1000,
        tinygsTemp: beacon.brkTempActive,
        tinygsTxTemp: beacon.brkTempActive,
        tinygsSolarPower: beacon.sesTotalGeneratedPower,
        tinygsAlt: beacon.sopAltitudeGlonass,
        tinygsChargePower: beacon.sesTotalChargingPower,
        tinygsMainVoltage: beacon.sesVoltage,
        tinygsLat: beacon.sopLatitudeGlonass,
        tinygsLng: beacon.sopLongitudeGlonass,
      },
      type: 'Beacon',
      telemetry: true,
    };
  },
  checks: {
    txPowerMw: TX_POWER_MW,
    frame: [
      lengthIs(143),
      lengthByte(0),
      magic(1, ADDRESSES),
      magic(11, BEACON_TYPE),
      crc16('CRC-16/X-25', { from: LINK_HEADER_BYTES }),
    ],
    fields: [
      range('payload.brkTransmitterPowerActive', 0, 5),
      range('payload.brkTempActive', -40, 85),
      range('payload.sesVoltage', 5000, 9000),
    ],
  },
};
