// Identifiers: station names, user ids and station ids `{name}@{userId}` (SPEC.md sections 2 and 5).
import { z } from 'zod';
import { STATION_ID_MAX_CHARS, STATION_ID_PATTERN } from './station-ids';

export * from './station-ids';

export const STATION_NAME_CHARS_PATTERN = /^[A-Za-z0-9_]+$/;
export const STATION_NAME_MIN_CHARS = 4;
export const STATION_NAME_MAX_CHARS = 24;

export const STATION_NAME_ERRORS = {
  required: 'Station Name is required',
  tooShort: 'Station Name must be more than 3 characters',
  tooLong: 'Station Name must be less than 25 characters',
  chars: 'Allowed characters: A-Z, a-z, 0-9, _',
} as const;

/** New station names: more than 3 and fewer than 25 characters of A-Z, a-z, 0-9, _. */
export const StationNameSchema = z
  .string({ error: STATION_NAME_ERRORS.required })
  .min(1, { error: STATION_NAME_ERRORS.required, abort: true })
  .max(STATION_NAME_MAX_CHARS, { error: STATION_NAME_ERRORS.tooLong, abort: true })
  .min(STATION_NAME_MIN_CHARS, STATION_NAME_ERRORS.tooShort)
  .regex(STATION_NAME_CHARS_PATTERN, STATION_NAME_ERRORS.chars);

/** Numeric user id (the MQTT username). Numbers are accepted and become text. */
export const UserIdSchema = z.coerce
  .string()
  .max(20, { error: 'User id is too long', abort: true })
  .regex(/^\d+$/, 'User id must be a number');
export type UserId = z.infer<typeof UserIdSchema>;

export const STATION_ID_ERROR =
  'Station id must look like {name}@{userId} (name: A-Z, a-z, 0-9, _; userId: digits)';

export const StationIdSchema = z
  .string()
  .max(STATION_ID_MAX_CHARS, { error: STATION_ID_ERROR, abort: true })
  .regex(STATION_ID_PATTERN, STATION_ID_ERROR);
export type StationId = z.infer<typeof StationIdSchema>;
