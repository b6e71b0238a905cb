// Telemetry over time (server addition): every numeric field of a satellite's decoded packets as
// a series, read raw or as min/avg/max per hour or UTC day.
import { z } from 'zod';
import { epochMsQuery } from './api';

const DAY_MS = 24 * 3600 * 1000;

/** A field is the dotted path of a number in the decoded packet, e.g. `payload.batteryVolts`. */
export const TELEMETRY_FIELD_MAX_CHARS = 96;
export const TELEMETRY_FIELD_PATTERN = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
/** Numbers taken from one packet; the rest of a larger packet is not kept. */
export const TELEMETRY_MAX_FIELDS_PER_PACKET = 128;
/** Fields kept per satellite; samples of further fields are not stored. */
export const TELEMETRY_MAX_FIELDS_PER_SATELLITE = 256;
/** Raw samples are kept this long before a field's newest sample, hourly rollups this long. */
export const TELEMETRY_RAW_RETENTION_DAYS = 35;
export const TELEMETRY_HOUR_RETENTION_DAYS = 400;
/** The longest range one call answers. */
export const TELEMETRY_MAX_RANGE_DAYS = 400;
/** The longest range answered raw, and per hour. */
export const TELEMETRY_RAW_MAX_RANGE_DAYS = 7;
export const TELEMETRY_HOUR_MAX_RANGE_DAYS = 92;
/** At most this many raw samples per answer (the oldest of the range; `truncated` says so). */
export const TELEMETRY_MAX_RAW_POINTS = 20_000;

/** The ranges the satellite page offers, in days. */
export const TELEMETRY_RANGES = { '1d': 1, '7d': 7, '30d': 30, '1y': 365 } as const;
export type TelemetryRange = keyof typeof TELEMETRY_RANGES;

export const TELEMETRY_BUCKETS = ['raw', 'hour', 'day'] as const;
export type TelemetryBucket = (typeof TELEMETRY_BUCKETS)[number];

export const TelemetryFieldSchema = z
  .string()
  .max(TELEMETRY_FIELD_MAX_CHARS, {
    error: `field must be at most ${TELEMETRY_FIELD_MAX_CHARS} characters`,
    abort: true,
  })
  .regex(TELEMETRY_FIELD_PATTERN, 'field must be a dotted path of letters, digits and _');

export const TelemetryQuerySchema = z
  .object({
    field: TelemetryFieldSchema,
    /** default: `to` minus one day */
    from: epochMsQuery('from').optional(),
    /** default: the field's newest sample */
    to: epochMsQuery('to').optional(),
    /** auto: raw up to two days (within the raw retention), per hour up to 31 days, else per day */
    bucket: z.enum(['auto', ...TELEMETRY_BUCKETS]).default('auto'),
    /** csv also when the request accepts text/csv */
    format: z.enum(['json', 'csv']).optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from < q.to, {
    message: 'from must be before to',
    path: ['from'],
  })
  .refine(
    (q) =>
      q.from === undefined ||
      q.to === undefined ||
      q.to - q.from <= TELEMETRY_MAX_RANGE_DAYS * DAY_MS,
    { message: `from and to must be at most ${TELEMETRY_MAX_RANGE_DAYS} days apart`, path: ['to'] },
  );
export type TelemetryQuery = z.infer<typeof TelemetryQuerySchema>;

/**
 * One field over a range, column-wise (index i of every array is one point), oldest first: raw
 * samples (at most one per second, the first: `t` its time to the second, `avg` its value) or buckets (`t` their starts, with `min`, `avg`,
 * `max` and `count` per bucket).
 */
export const TelemetrySeriesResponseSchema = z.object({
  satellite: z.string(),
  field: z.string(),
  bucket: z.enum(TELEMETRY_BUCKETS),
  from: z.number().int(),
  to: z.number().int(),
  /** epoch ms: a sample's time or a bucket's start */
  t: z.array(z.number().int()),
  /** a raw sample's value, or a bucket's average */
  avg: z.array(z.number()),
  /** buckets only */
  min: z.array(z.number()).optional(),
  max: z.array(z.number()).optional(),
  count: z.array(z.number().int()).optional(),
  /** more raw samples than TELEMETRY_MAX_RAW_POINTS: the newest were left out */
  truncated: z.boolean(),
});
export type TelemetrySeries = z.infer<typeof TelemetrySeriesResponseSchema>;

export const TelemetryFieldInfoSchema = z.object({
  field: z.string(),
  /** epoch ms of the first and the newest sample */
  firstAt: z.number().int(),
  lastAt: z.number().int(),
  samples: z.number().int(),
});
export type TelemetryFieldInfo = z.infer<typeof TelemetryFieldInfoSchema>;

export const TelemetryFieldsResponseSchema = z.object({
  satellite: z.string(),
  fields: z.array(TelemetryFieldInfoSchema),
});
export type TelemetryFields = z.infer<typeof TelemetryFieldsResponseSchema>;
