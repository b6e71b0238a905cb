import { describe, expect, it } from 'vitest';
import { ommToTleLines, parseTle, TleFormatError } from '../src/index';

// One element set of the ISS as CelesTrak publishes it in both forms (GP, January 2021).
const ISS_TLE = [
  'ISS (ZARYA)',
  '1 25544U 98067A   21009.90234038  .00001675  00000-0  38183-4 0  9997',
  '2 25544  51.6464  45.6388 0000512 205.3232 213.2158 15.49275327264062',
] as const;
const ISS_OMM = {
  OBJECT_NAME: 'ISS (ZARYA)',
  OBJECT_ID: '1998-067A',
  EPOCH: '2021-01-09T21:39:22.208832',
  MEAN_MOTION: 15.49275327,
  ECCENTRICITY: 0.0000512,
  INCLINATION: 51.6464,
  RA_OF_ASC_NODE: 45.6388,
  ARG_OF_PERICENTER: 205.3232,
  MEAN_ANOMALY: 213.2158,
  EPHEMERIS_TYPE: 0,
  CLASSIFICATION_TYPE: 'U',
  NORAD_CAT_ID: 25544,
  ELEMENT_SET_NO: 999,
  REV_AT_EPOCH: 26406,
  BSTAR: 0.000038183,
  MEAN_MOTION_DOT: 0.00001675,
  MEAN_MOTION_DDOT: 0,
};

describe('ommToTleLines', () => {
  it('writes the same lines as the TLE form of the same element set', () => {
    expect(ommToTleLines(ISS_OMM)).toEqual([...ISS_TLE]);
    expect(parseTle(ommToTleLines(ISS_OMM)).epoch).toEqual(parseTle(ISS_TLE).epoch);
  });

  it('reads numbers written as strings (Space-Track style) the same way', () => {
    const asText = Object.fromEntries(
      Object.entries(ISS_OMM).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
    );
    expect(ommToTleLines(asText)).toEqual([...ISS_TLE]);
  });

  it('refuses records that are not SGP4 element sets or lack a field', () => {
    expect(() => ommToTleLines({ ...ISS_OMM, EPHEMERIS_TYPE: 4 })).toThrow(TleFormatError);
    expect(() => ommToTleLines({ ...ISS_OMM, MEAN_MOTION: undefined })).toThrow(/MEAN_MOTION/);
    expect(() => ommToTleLines({ ...ISS_OMM, EPOCH: '9 January 2021' })).toThrow(/EPOCH/);
    expect(() => ommToTleLines({ ...ISS_OMM, ECCENTRICITY: 1.2 })).toThrow(TleFormatError);
    expect(() => ommToTleLines({ ...ISS_OMM, NORAD_CAT_ID: 'x' })).toThrow(/NORAD_CAT_ID/);
  });
});
