import { twoline2satrec, type SatRec } from 'satellite.js';
import { MS_PER_DAY } from './constants';
import { formatNoradId, parseNoradId } from './tle-fields';

/** The three lines of a TLE as published (name line first). */
export type TleLines = readonly [name: string, line1: string, line2: string];

/**
 * A parsed TLE. Objects are shared through the parse cache: treat them as read-only.
 * `satrec` is the SGP4 state of satellite.js; propagate it with the functions of this package.
 */
export interface Tle {
  readonly name: string;
  readonly line1: string;
  readonly line2: string;
  readonly noradId: number;
  readonly epoch: Date;
  readonly satrec: SatRec;
}

export class TleFormatError extends Error {
  override readonly name = 'TleFormatError';
}

const TLE_LINE_LENGTH = 69;

/**
 * Modulo-10 checksum of a TLE line: the sum of its digits plus 1 for every minus sign, over the
 * first 68 columns (column 69 holds the checksum itself).
 */
export function tleChecksum(line: string): number {
  let sum = 0;
  const end = Math.min(line.length, TLE_LINE_LENGTH - 1);
  for (let i = 0; i < end; i++) {
    const code = line.charCodeAt(i);
    if (code >= 48 && code <= 57) sum += code - 48;
    else if (code === 45) sum += 1;
  }
  return sum % 10;
}

// Parsed TLEs are cached by their text: the server resolves the same few hundred TLEs for every
// received frame and every map refresh, and SGP4 initialisation is the expensive part.
const PARSE_CACHE_MAX_ENTRIES = 4096;
const parseCache = new Map<string, Tle>();

/**
 * Parses a TLE given as [name, line1, line2] or as text (two or three lines; a Space-Track style
 * "0 " prefix on the name line is removed). Results are cached by text, so parsing the same TLE
 * again returns the same object. Throws TleFormatError on malformed lines or bad checksums.
 */
export function parseTle(input: TleLines | string): Tle {
  const [rawName, rawLine1, rawLine2] = typeof input === 'string' ? splitTleText(input) : input;
  const name = rawName.trim().replace(/^0 /, '');
  const line1 = rawLine1.trimEnd();
  const line2 = rawLine2.trimEnd();
  const key = `${name}\n${line1}\n${line2}`;
  const cached = parseCache.get(key);
  if (cached) return cached;

  checkLine(line1, '1');
  checkLine(line2, '2');
  if (line1.slice(2, 7) !== line2.slice(2, 7)) {
    throw new TleFormatError('TLE lines 1 and 2 carry different catalogue numbers');
  }
  const noradId = parseNoradId(line1.slice(2, 7));
  if (noradId === null) throw new TleFormatError(`Invalid catalogue number "${line1.slice(2, 7)}"`);

  const satrec = twoline2satrec(line1, line2);
  const numbers = [satrec.no, satrec.ecco, satrec.inclo, satrec.nodeo, satrec.argpo, satrec.mo];
  if (
    !numbers.every(Number.isFinite) ||
    !Number.isFinite(satrec.bstar) ||
    !Number.isFinite(satrec.jdsatepoch)
  ) {
    throw new TleFormatError('TLE has a field that is not a number');
  }
  if (satrec.no <= 0 || satrec.error !== 0) {
    throw new TleFormatError(`SGP4 cannot initialise this TLE (error ${satrec.error})`);
  }

  const tle: Tle = { name, line1, line2, noradId, epoch: epochOf(satrec), satrec };
  if (parseCache.size >= PARSE_CACHE_MAX_ENTRIES) {
    const oldest = parseCache.keys().next();
    if (!oldest.done) parseCache.delete(oldest.value);
  }
  parseCache.set(key, tle);
  return tle;
}

function splitTleText(text: string): [string, string, string] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  if (lines.length === 2) return ['', lines[0] ?? '', lines[1] ?? ''];
  if (lines.length === 3) return [lines[0] ?? '', lines[1] ?? '', lines[2] ?? ''];
  throw new TleFormatError(`A TLE has 2 or 3 lines, got ${lines.length}`);
}

function checkLine(line: string, lineNumber: '1' | '2'): void {
  if (line.length !== TLE_LINE_LENGTH) {
    throw new TleFormatError(
      `TLE line ${lineNumber} must be ${TLE_LINE_LENGTH} characters, got ${line.length}`,
    );
  }
  if (line[0] !== lineNumber || line[1] !== ' ') {
    throw new TleFormatError(`TLE line ${lineNumber} must start with "${lineNumber} "`);
  }
  const expected = tleChecksum(line);
  if (line[68] !== String(expected)) {
    throw new TleFormatError(
      `TLE line ${lineNumber} checksum is "${line[68]}", expected ${expected}`,
    );
  }
}

function epochOf(satrec: SatRec): Date {
  // Two-digit TLE years: 57-99 are 1957-1999, 00-56 are 2000-2056 (the TLE convention).
  const year = satrec.epochyr < 57 ? 2000 + satrec.epochyr : 1900 + satrec.epochyr;
  return new Date(Math.round(Date.UTC(year, 0, 1) + (satrec.epochdays - 1) * MS_PER_DAY));
}

/** Elements for makeTleLines. Angles in degrees, mean motion in revolutions per day. */
export interface TleElements {
  name: string;
  /** 1..339999 (above 99999 written in Alpha-5). */
  noradId: number;
  epoch: Date;
  /** The part of the epoch below a millisecond, in ms (0 <= x < 1): Date stops at milliseconds. */
  epochSubMs?: number;
  inclinationDeg: number;
  raanDeg: number;
  eccentricity: number;
  argPerigeeDeg: number;
  meanAnomalyDeg: number;
  meanMotionRevPerDay: number;
  /** B* drag term in 1/earth radii. Default 0. */
  bstar?: number;
  /** TLE line 1 field: first derivative of mean motion divided by 2, rev/day². Default 0. */
  meanMotionDotOver2RevPerDay2?: number;
  /** TLE line 1 field: second derivative of mean motion divided by 6, rev/day³. Default 0. */
  meanMotionDdotOver6RevPerDay3?: number;
  /** Default 'U' (unclassified). */
  classification?: 'U' | 'C' | 'S';
  /** International designator, e.g. '98067A' (at most 8 characters). Default blank. */
  intlDesignator?: string;
  /** 0..9999. Default 999. */
  elementSetNumber?: number;
  /** 0..99999. Default 0. */
  revolutionNumberAtEpoch?: number;
}

/** Writes elements as a standard fixed-width TLE with correct checksums. Throws RangeError. */
export function makeTleLines(elements: TleElements): [name: string, line1: string, line2: string] {
  const satnum = formatNoradId(elements.noradId);
  const designator = elements.intlDesignator ?? '';
  if (designator.length > 8) throw new RangeError('intlDesignator has at most 8 characters');

  const line1Body =
    `1 ${satnum}${elements.classification ?? 'U'} ${designator.padEnd(8)} ` +
    `${formatEpoch(elements.epoch, elements.epochSubMs ?? 0)} ${formatFirstDerivative(elements.meanMotionDotOver2RevPerDay2 ?? 0)} ` +
    `${formatExponential(elements.meanMotionDdotOver6RevPerDay3 ?? 0)} ` +
    `${formatExponential(elements.bstar ?? 0)} 0 ` +
    `${formatInteger(elements.elementSetNumber ?? 999, 4, 'elementSetNumber')}`;

  if (!(elements.eccentricity >= 0 && elements.eccentricity < 1)) {
    throw new RangeError('eccentricity must be in [0, 1)');
  }
  if (!(elements.inclinationDeg >= 0 && elements.inclinationDeg <= 180)) {
    throw new RangeError('inclinationDeg must be in [0, 180]');
  }
  if (!(elements.meanMotionRevPerDay > 0 && elements.meanMotionRevPerDay < 100)) {
    throw new RangeError('meanMotionRevPerDay must be in (0, 100)');
  }
  const eccentricityDigits = Math.min(9_999_999, Math.round(elements.eccentricity * 1e7));
  const line2Body =
    `2 ${satnum} ${formatAngle(elements.inclinationDeg, false)} ${formatAngle(elements.raanDeg, true)} ` +
    `${String(eccentricityDigits).padStart(7, '0')} ${formatAngle(elements.argPerigeeDeg, true)} ` +
    `${formatAngle(elements.meanAnomalyDeg, true)} ${elements.meanMotionRevPerDay.toFixed(8).padStart(11)}` +
    `${formatInteger(elements.revolutionNumberAtEpoch ?? 0, 5, 'revolutionNumberAtEpoch')}`;

  return [elements.name, withChecksum(line1Body), withChecksum(line2Body)];
}

function withChecksum(body: string): string {
  if (body.length !== TLE_LINE_LENGTH - 1) {
    throw new RangeError(
      `TLE line would be ${body.length + 1} characters; a field is out of range`,
    );
  }
  return body + String(tleChecksum(body));
}

/** YYDDD.DDDDDDDD: two-digit year and fractional day of year (1.0 = 1 January 00:00 UTC). */
function formatEpoch(epoch: Date, subMs: number): string {
  const year = epoch.getUTCFullYear();
  if (year < 1957 || year > 2056) throw new RangeError('TLE epochs are limited to 1957-2056');
  if (!(subMs >= 0 && subMs < 1)) throw new RangeError('epochSubMs must be in [0, 1)');
  const dayOfYear = (epoch.getTime() - Date.UTC(year, 0, 1) + subMs) / MS_PER_DAY + 1;
  return `${String(year % 100).padStart(2, '0')}${dayOfYear.toFixed(8).padStart(12, '0')}`;
}

/** Sign and 8 decimals with the leading zero dropped: " .00016717" or "-.00002182". */
function formatFirstDerivative(value: number): string {
  const digits = Math.abs(value).toFixed(8);
  if (!digits.startsWith('0.'))
    throw new RangeError('meanMotionDotOver2RevPerDay2 must be below 1 in magnitude');
  return `${value < 0 ? '-' : ' '}${digits.slice(1)}`;
}

/** TLE "assumed decimal point" notation: " 30270-3" means 0.30270e-3. */
function formatExponential(value: number): string {
  // The exponent is one digit: below 1e-10 precision is lost, below 0.5e-14 the value is 0.
  let exponent = value === 0 ? -9 : Math.max(-9, Math.floor(Math.log10(Math.abs(value))) + 1);
  let mantissa = Math.round((Math.abs(value) / 10 ** exponent) * 1e5);
  if (mantissa >= 100_000) {
    mantissa = 10_000;
    exponent += 1;
  }
  if (mantissa === 0) return ' 00000-0';
  if (exponent > 9) throw new RangeError(`${value} does not fit TLE exponential notation`);
  return `${value < 0 ? '-' : ' '}${String(mantissa).padStart(5, '0')}${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
}

/** Degrees with 4 decimals in 8 columns; wrapped to [0, 360) unless it is an inclination. */
function formatAngle(deg: number, wrap: boolean): string {
  let value = wrap ? ((deg % 360) + 360) % 360 : deg;
  if (wrap && value.toFixed(4) === '360.0000') value = 0;
  return value.toFixed(4).padStart(8);
}

function formatInteger(value: number, width: number, field: string): string {
  if (!Number.isInteger(value) || value < 0 || value >= 10 ** width) {
    throw new RangeError(`${field} must be an integer of at most ${width} digits`);
  }
  return String(value).padStart(width);
}
