// CCSDS Orbit Mean-Elements Messages as CelesTrak's GP service serves them in JSON (FORMAT=json):
// one object per element set with the TLE's fields under their OMM keywords. The derivative terms
// carry the TLE's own values (MEAN_MOTION_DOT is the TLE's n-dot/2, MEAN_MOTION_DDOT its n-ddot/6).
import { makeTleLines, TleFormatError, type TleElements } from './tle';

/** The keywords of one OMM record that an SGP4 element set needs (others are ignored). */
export interface OmmRecord {
  OBJECT_NAME?: unknown;
  OBJECT_ID?: unknown;
  EPOCH?: unknown;
  MEAN_MOTION?: unknown;
  ECCENTRICITY?: unknown;
  INCLINATION?: unknown;
  RA_OF_ASC_NODE?: unknown;
  ARG_OF_PERICENTER?: unknown;
  MEAN_ANOMALY?: unknown;
  EPHEMERIS_TYPE?: unknown;
  CLASSIFICATION_TYPE?: unknown;
  NORAD_CAT_ID?: unknown;
  ELEMENT_SET_NO?: unknown;
  REV_AT_EPOCH?: unknown;
  BSTAR?: unknown;
  MEAN_MOTION_DOT?: unknown;
  MEAN_MOTION_DDOT?: unknown;
}

function numberField(record: OmmRecord, key: keyof OmmRecord, fallback?: number): number {
  const value = record[key];
  // CelesTrak writes numbers; other producers (Space-Track) write them as strings.
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n === 'number' && Number.isFinite(n)) return n;
  if (value === undefined && fallback !== undefined) return fallback;
  throw new TleFormatError(`OMM ${key} is missing or not a number`);
}

/** 2020-068J (OMM) -> 20068J (TLE columns 10-17); blank when absent or not of that form. */
function intlDesignator(objectId: unknown): string {
  if (typeof objectId !== 'string') return '';
  const match = /^\d{2}(\d{2})-(\d{3}[A-Z]{1,3})$/.exec(objectId.trim());
  return match ? `${match[1]}${match[2]}` : '';
}

/**
 * OMM EPOCH is UTC without a zone designator ("2026-11-24T18:03:21.123456"): the Date to the
 * millisecond and the microseconds below it, which the TLE's 8 decimals of a day still show.
 */
function epochOf(value: unknown): { epoch: Date; subMs: number } {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z?$/.test(value)
  )
    throw new TleFormatError('OMM EPOCH is missing or not an ISO date-time');
  const [whole = '', fraction = ''] = value.replace(/Z$/, '').split('.');
  const seconds = Date.parse(`${whole}Z`);
  if (!Number.isFinite(seconds)) throw new TleFormatError('OMM EPOCH is not a valid date');
  const ms = Number(`0.${fraction || '0'}`) * 1000;
  return { epoch: new Date(seconds + Math.floor(ms)), subMs: ms - Math.floor(ms) };
}

/**
 * The element set of one OMM record as TLE lines [OBJECT_NAME, line 1, line 2] with correct
 * checksums. Throws TleFormatError when a field is missing, out of range, or the set is not for
 * SGP4 (EPHEMERIS_TYPE other than 0).
 */
export function ommToTleLines(record: OmmRecord): [name: string, line1: string, line2: string] {
  const ephemerisType = numberField(record, 'EPHEMERIS_TYPE', 0);
  if (ephemerisType !== 0) {
    throw new TleFormatError(`OMM EPHEMERIS_TYPE ${ephemerisType} is not an SGP4 element set`);
  }
  const { epoch, subMs } = epochOf(record.EPOCH);
  const classification =
    record.CLASSIFICATION_TYPE === 'C' || record.CLASSIFICATION_TYPE === 'S'
      ? record.CLASSIFICATION_TYPE
      : 'U';
  const elements: TleElements = {
    name: typeof record.OBJECT_NAME === 'string' ? record.OBJECT_NAME.trim().slice(0, 64) : '',
    noradId: numberField(record, 'NORAD_CAT_ID'),
    epoch,
    epochSubMs: subMs,
    inclinationDeg: numberField(record, 'INCLINATION'),
    raanDeg: numberField(record, 'RA_OF_ASC_NODE'),
    eccentricity: numberField(record, 'ECCENTRICITY'),
    argPerigeeDeg: numberField(record, 'ARG_OF_PERICENTER'),
    meanAnomalyDeg: numberField(record, 'MEAN_ANOMALY'),
    meanMotionRevPerDay: numberField(record, 'MEAN_MOTION'),
    bstar: numberField(record, 'BSTAR', 0),
    meanMotionDotOver2RevPerDay2: numberField(record, 'MEAN_MOTION_DOT', 0),
    meanMotionDdotOver6RevPerDay3: numberField(record, 'MEAN_MOTION_DDOT', 0),
    classification,
    intlDesignator: intlDesignator(record.OBJECT_ID),
    elementSetNumber: numberField(record, 'ELEMENT_SET_NO', 999) % 10_000,
    // The TLE's revolution field has five digits and wraps, as the published sets do.
    revolutionNumberAtEpoch: numberField(record, 'REV_AT_EPOCH', 0) % 100_000,
  };
  try {
    return makeTleLines(elements);
  } catch (err) {
    throw new TleFormatError(
      `OMM record does not fit a TLE: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
