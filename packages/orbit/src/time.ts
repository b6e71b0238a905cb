import { JULIAN_DATE_UNIX_EPOCH, MS_PER_DAY } from './constants';

/** A moment as a Date or as UTC epoch milliseconds (the storage format; avoids a Date per call). */
export type TimeInput = Date | number;

export function toEpochMs(time: TimeInput): number {
  return typeof time === 'number' ? time : time.getTime();
}

export function julianDateOfEpochMs(epochMs: number): number {
  return epochMs / MS_PER_DAY + JULIAN_DATE_UNIX_EPOCH;
}
