import type { TleLines } from '../src/index';

/** A real ISS element set (2019-06-05), mean motion 15.51 rev/day: about 410 km up, 51.64 deg inclined. */
export const ISS_2019: TleLines = [
  'ISS (ZARYA)',
  '1 25544U 98067A   19156.50900463  .00003075  00000-0  59442-4 0  9992',
  '2 25544  51.6433  59.2583 0008217  16.4489 347.6017 15.51174618173442',
];
export const ISS_2019_TIME = new Date('2019-06-05T12:00:00Z');

/** The ISS element set used as the worked example of the TLE format (2008, with minus signs). */
export const ISS_2008: TleLines = [
  'ISS (ZARYA)',
  '1 25544U 98067A   08264.51782528 -.00002182  00000-0 -11606-4 0  2927',
  '2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537',
];

export const MADRID = { latDeg: 40.4168, lngDeg: -3.7038, altKm: 0.65 };
