// The new-station form's values and their validation with the contracts rules (SPEC.md section 5).
import { LOCATION_DECIMALS, NewStationFormSchema, toCreationPayload } from '@tinygs/contracts';
import type { CreationPayload } from '@tinygs/contracts';
import { normalizeLngDeg } from '@tinygs/orbit';
import { posixTimeZone } from './posixTimeZone';

export interface NewStationValues {
  name: string;
  otp: string;
  locationLat: string;
  locationLon: string;
  adminPassword: string;
  adminPasswordConfirm: string;
  /** IANA name as shown; sent as POSIX text */
  timeZone: string;
}
export type NewStationField = keyof NewStationValues;

export const EMPTY_NEW_STATION: NewStationValues = {
  name: '',
  otp: '',
  locationLat: '',
  locationLon: '',
  adminPassword: '',
  adminPasswordConfirm: '',
  timeZone: '',
};

export type FieldErrors = Partial<Record<NewStationField, string>>;

/** SPEC.md section 5, as in the contracts' NewStationFormSchema refinement. */
export const PASSWORDS_MUST_MATCH = 'Passwords must match';
export const UNKNOWN_TIME_ZONE_ERROR = 'Choose a time zone from the list'; // ours

function knownZone(zone: string): boolean {
  try {
    posixTimeZone(zone);
    return true;
  } catch {
    return false;
  }
}

export function validateNewStation(values: NewStationValues): FieldErrors {
  const result = NewStationFormSchema.safeParse(values);
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path[0] as NewStationField | undefined;
      if (field && errors[field] === undefined) errors[field] = issue.message;
    }
  }
  // The contracts' match refinement only runs once every other field is valid; the owner should
  // learn about a mismatch while still filling the form.
  if (
    errors.adminPasswordConfirm === undefined &&
    values.adminPasswordConfirm !== '' &&
    values.adminPasswordConfirm !== values.adminPassword
  ) {
    errors.adminPasswordConfirm = PASSWORDS_MUST_MATCH;
  }
  if (errors.timeZone === undefined && !knownZone(values.timeZone.trim())) {
    errors.timeZone = UNKNOWN_TIME_ZONE_ERROR;
  }
  return errors;
}

/** The creation payload with the zone as POSIX text; null while the form is invalid. */
export function creationPayload(values: NewStationValues): CreationPayload | null {
  const result = NewStationFormSchema.safeParse(values);
  if (!result.success) return null;
  return toCreationPayload({ ...result.data, timeZone: posixTimeZone(result.data.timeZone) });
}

/** A picked map point as field text: 3 decimals, longitude within -180..180. */
export function pickedLocationText(lat: number, lng: number): { lat: string; lng: string } {
  const round = (v: number) => String(Number(v.toFixed(LOCATION_DECIMALS)));
  return { lat: round(lat), lng: round(Math.max(-180, Math.min(180, normalizeLngDeg(lng)))) };
}

/** The fields as a map point, when both are valid numbers in range. */
export function locationOf(values: NewStationValues): { lat: number; lng: number } | null {
  const lat = Number(values.locationLat);
  const lng = Number(values.locationLon);
  if (values.locationLat.trim() === '' || values.locationLon.trim() === '') return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}
