import { Norby } from '../generated/norby';
import { parseStruct, structToJson } from '../kaitai';
import type { FormatDecoder } from '../types';

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
};
