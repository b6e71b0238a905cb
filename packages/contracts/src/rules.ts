// Validation rules of SPEC.md section 5. Messages given by the spec are copied word for word;
// the others (marked "ours") follow the same wording style.
import { z } from 'zod';
import {
  ANTENNA_BAND_MAX_MHZ,
  ANTENNA_BAND_MIN_MHZ,
  ANTENNA_TYPES,
  DESCRIPTION_MAX_CHARS,
  MODEM_RANGES,
  TX_TEXT_MAX_CHARS,
} from './constants';
import { isBase64, isHex } from './binary';
import { StationNameSchema } from './ids';

/** RFC 5321: a forward path holds at most 254 characters of address. */
export const EMAIL_MAX_CHARS = 254;

/**
 * `local@domain.tld` without spaces: one `@`, something before it, and a dot inside the domain
 * with something on both sides. A single left-to-right scan: linear on any input, unlike the
 * equivalent pattern `[^\s@]+@[^\s@]+\.[^\s@]+`, which backtracks quadratically.
 */
export function isSimpleEmail(text: string): boolean {
  if (/\s/.test(text)) return false;
  const at = text.indexOf('@');
  if (at < 1 || text.indexOf('@', at + 1) !== -1) return false;
  const domain = text.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}

export const LoginEmailSchema = z
  .string({ error: 'Email is required' })
  // Length first (abort), so nothing below ever runs on unbounded text.
  .max(EMAIL_MAX_CHARS, { error: 'Email must be at most 254 characters' /* ours */, abort: true })
  .trim()
  .min(1, { error: 'Email is required', abort: true })
  .refine(isSimpleEmail, 'Invalid email format');

export const CAPTCHA_ERRORS = {
  error: 'Captcha Error, please try again',
  expired: 'Captcha Expired, please try again',
  unavailable: 'Captcha service is unavailable',
} as const;

export const OtpSchema = z
  .string({ error: 'OTP is required' })
  .min(1, { error: 'OTP is required', abort: true })
  .max(6, { error: 'OTP must be a 6-digit number', abort: true })
  .regex(/^\d{6}$/, 'OTP must be a 6-digit number');

const NUMERIC_TEXT = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
// Longer than any coordinate anyone types; the pattern above is only ever run on this much.
const NUMERIC_TEXT_MAX_CHARS = 40;

/** Form fields give text; numbers pass through. Blank becomes undefined (required), junk NaN. */
function numericInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.length > NUMERIC_TEXT_MAX_CHARS) return Number.NaN;
  if (value.trim() === '') return undefined;
  return NUMERIC_TEXT.test(value) ? Number(value) : Number.NaN;
}

function coordinateSchema(requiredMessage: string, limit: number, rangeMessage: string) {
  return z.preprocess(
    numericInput,
    z
      .number({
        error: (issue) => (issue.input === undefined ? requiredMessage : 'Must be a number'),
      })
      .min(-limit, rangeMessage)
      .max(limit, rangeMessage),
  );
}

export const LATITUDE_RANGE_ERROR = 'Latitude must be between -90 and 90';
export const LONGITUDE_RANGE_ERROR = 'Longitude must be between -180 and 180';
/** Accepts a number or numeric text as a form gives it; the output is a number. */
export const LatitudeSchema = coordinateSchema(
  'Latitude is required' /* ours */,
  90,
  LATITUDE_RANGE_ERROR,
);
export const LongitudeSchema = coordinateSchema(
  'Longitude is required' /* ours */,
  180,
  LONGITUDE_RANGE_ERROR,
);

export const PASSWORD_MIN_CHARS = 6;
export const PASSWORD_MAX_CHARS = 64;
const PASSWORD_TOO_LONG = 'Password must be at most 64 characters'; // ours
export const AdminPasswordSchema = z
  .string({ error: 'Password is required' /* ours */ })
  .min(1, { error: 'Password is required' /* ours */, abort: true })
  .max(PASSWORD_MAX_CHARS, { error: PASSWORD_TOO_LONG, abort: true })
  .min(PASSWORD_MIN_CHARS, 'Password must be at least 6 characters');

export const AdminPasswordConfirmSchema = z
  .string({ error: 'Password confirmation is required' /* ours */ })
  .min(1, 'Password confirmation is required' /* ours */)
  .max(PASSWORD_MAX_CHARS, PASSWORD_TOO_LONG);

/** POSIX TZ strings are short (the longest in the firmware's table is under 50 characters). */
export const TIME_ZONE_MAX_CHARS = 100;
export const TimeZoneSchema = z
  .string({ error: 'Time Zone is required' /* ours */ })
  .max(TIME_ZONE_MAX_CHARS, {
    error: 'Time Zone must be at most 100 characters' /* ours */,
    abort: true,
  })
  .trim()
  .min(1, 'Time Zone is required' /* ours */);

export const NewStationFormSchema = z
  .object({
    name: StationNameSchema,
    otp: OtpSchema,
    locationLat: LatitudeSchema,
    locationLon: LongitudeSchema,
    adminPassword: AdminPasswordSchema,
    adminPasswordConfirm: AdminPasswordConfirmSchema,
    timeZone: TimeZoneSchema,
  })
  .refine((form) => form.adminPassword === form.adminPasswordConfirm, {
    message: 'Passwords must match',
    path: ['adminPasswordConfirm'],
    // Report a mismatch even while other fields are still invalid.
    when: (payload) => {
      const value = payload.value as { adminPassword?: unknown; adminPasswordConfirm?: unknown };
      return (
        typeof value.adminPassword === 'string' && typeof value.adminPasswordConfirm === 'string'
      );
    },
  });
export type NewStationForm = z.infer<typeof NewStationFormSchema>;

// Raw text may carry markup that stripTags removes; more than this is refused before stripping.
const MARKUP_ALLOWANCE = 4;

export const PreferencesEmailSchema = z
  .string({ error: 'E-mail is required' })
  .max(EMAIL_MAX_CHARS * MARKUP_ALLOWANCE, {
    error: 'E-mail must be at most 254 characters' /* ours */,
    abort: true,
  })
  .overwrite((text) => stripTags(text).trim())
  .min(1, { error: 'E-mail is required', abort: true })
  .max(EMAIL_MAX_CHARS, { error: 'E-mail must be at most 254 characters' /* ours */, abort: true })
  .refine(isSimpleEmail, 'E-mail must be valid');

export const TermsAcceptedSchema = z.literal(true, {
  error: 'You must accept the terms and conditions.',
});

function isTagNameStart(ch: string | undefined): boolean {
  return ch !== undefined && /^[A-Za-z-]$/.test(ch);
}

/** Whether `text` from index `lt` (a `<`) opens a tag: `<`, optional `/`, `!` or `?`, then a letter or `-`. */
function opensTag(out: string[], lt: number): boolean {
  const first = out[lt + 1];
  if (first === '/' || first === '!' || first === '?') return isTagNameStart(out[lt + 2]);
  return isTagNameStart(first);
}

/**
 * Removes markup tags (`<` + optional `/`, `!` or `?` + letter ... `>`); a lone `<` as in "3 < 4" is text.
 * Nested fragments like `<<b>script>` go too: removing `<b>` joins `<` and `script>` into a tag.
 * One pass with a stack of the `<` still open in the output, so every character is pushed and
 * removed at most once (linear time, where repeating a replace until stable is quadratic).
 */
export function stripTags(text: string): string {
  const out: string[] = [];
  const open: number[] = [];
  for (const ch of text) {
    if (ch === '<') {
      open.push(out.length);
      out.push(ch);
    } else if (ch === '>') {
      const lt = open.at(-1);
      if (lt !== undefined && opensTag(out, lt)) {
        out.length = lt;
        open.pop();
      } else {
        // A `>` that closes no tag stays text, and no `<` before it can pair across it.
        out.push(ch);
        open.length = 0;
      }
    } else {
      out.push(ch);
    }
  }
  return out.join('');
}

export const DescriptionSchema = z
  .string()
  .max(DESCRIPTION_MAX_CHARS * MARKUP_ALLOWANCE, {
    error: 'Description must be at most 500 characters' /* ours */,
    abort: true,
  })
  .overwrite(stripTags)
  .max(DESCRIPTION_MAX_CHARS, 'Description must be at most 500 characters' /* ours */);

export const AntennaTypeSchema = z.enum(ANTENNA_TYPES, {
  error: 'Choose an antenna type from the list' /* ours */,
});

const ANTENNA_BAND_ERROR = 'Antenna band must be between 90 and 2500 MHz'; // ours
const antennaBandEdge = z
  .number({ error: 'Must be a number' })
  .min(ANTENNA_BAND_MIN_MHZ, ANTENNA_BAND_ERROR)
  .max(ANTENNA_BAND_MAX_MHZ, ANTENNA_BAND_ERROR);
/** [low, high] MHz */
export const AntennaBandSchema = z
  .tuple([antennaBandEdge, antennaBandEdge])
  .refine(
    ([low, high]) => low <= high,
    'Antenna band low end must not exceed the high end' /* ours */,
  );

export const TX_EMPTY_ERROR = 'You cannot send an empty payload!';
/** Text transmission: 1..25 characters, each a single 8-bit character (code 0..255). */
export const TxTextSchema = z
  .string({ error: TX_EMPTY_ERROR })
  .min(1, { error: TX_EMPTY_ERROR, abort: true })
  .max(TX_TEXT_MAX_CHARS, {
    error: 'Text payload must be at most 25 characters' /* ours */,
    abort: true,
  })
  // eslint-disable-next-line no-control-regex
  .regex(/^[\u0000-\u00ff]*$/, 'Only 8-bit ASCII characters can be sent' /* ours */);

export const BINARY_ERRORS = {
  base64: 'Invalid base64 string',
  hex: 'Invalid hex string',
} as const;
// A transmission is at most 255 bytes: 340 base64 characters, 765 as spaced hex pairs.
const BINARY_TEXT_MAX_CHARS = 1024;
const BINARY_TOO_LONG = 'Payload must be at most 255 bytes'; // ours
export const Base64TextSchema = z
  .string()
  .max(BINARY_TEXT_MAX_CHARS, { error: BINARY_TOO_LONG, abort: true })
  .refine(isBase64, BINARY_ERRORS.base64);
/** Hex pairs; whitespace between them is allowed. */
export const HexTextSchema = z
  .string()
  .max(BINARY_TEXT_MAX_CHARS, { error: BINARY_TOO_LONG, abort: true })
  .refine(isHex, BINARY_ERRORS.hex);

function rangeSchema(label: string, range: { min: number; max: number }, integer: boolean) {
  const message = `${label} must be between ${range.min} and ${range.max}`;
  const base = z.number({ error: 'Must be a number' });
  return (integer ? base.int(`${label} must be a whole number`) : base)
    .min(range.min, message)
    .max(range.max, message);
}

export const NoradSchema = rangeSchema('NORAD', MODEM_RANGES.norad, true);
export const SpreadingFactorSchema = rangeSchema('Spreading factor', MODEM_RANGES.sf, true);
export const BandwidthKHzSchema = z
  .number({ error: 'Must be a number' })
  .min(MODEM_RANGES.bwKHz.min, 'Bandwidth must be between 125 and 500 kHz')
  .max(MODEM_RANGES.bwKHz.max, 'Bandwidth must be between 125 and 500 kHz')
  .multipleOf(MODEM_RANGES.bwKHz.step, 'Bandwidth must be a multiple of 125 kHz');
export const CodingRateSchema = rangeSchema('Coding rate', MODEM_RANGES.cr, true);
export const SyncWordSchema = rangeSchema('Sync word', MODEM_RANGES.sw, true);
export const PreambleLengthSchema = rangeSchema('Preamble length', MODEM_RANGES.pl, true);
export const CurrentLimitSchema = rangeSchema('Current limit', MODEM_RANGES.cl, false);
export const GainSchema = rangeSchema('Gain', MODEM_RANGES.gain, true);
export const TxPowerDbmSchema = rangeSchema('TX power', MODEM_RANGES.pwr, true);
/** kbps; fractional rates such as 9.6 are valid */
export const FskBitrateSchema = rangeSchema('Bitrate', MODEM_RANGES.br, false);
/** kHz */
export const FreqDevSchema = rangeSchema('Frequency deviation', MODEM_RANGES.fd, false);
