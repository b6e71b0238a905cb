import { describe, expect, it } from 'vitest';
import {
  AdminPasswordSchema,
  CAPTCHA_ERRORS,
  LatitudeSchema,
  LoginEmailSchema,
  LongitudeSchema,
  NewStationFormSchema,
  OtpSchema,
  PreferencesEmailSchema,
  StationNameSchema,
  TermsAcceptedSchema,
  TimeZoneSchema,
  toCreationPayload,
  CreationPayloadSchema,
} from '../src/index';
import { firstMessage, messages } from './helpers';

describe('station name', () => {
  it('is required', () => {
    expect(messages(StationNameSchema, '')).toEqual(['Station Name is required']);
    expect(firstMessage(StationNameSchema, undefined)).toBe('Station Name is required');
  });
  it('needs more than 3 characters', () => {
    expect(firstMessage(StationNameSchema, 'abc')).toBe(
      'Station Name must be more than 3 characters',
    );
    expect(StationNameSchema.parse('abcd')).toBe('abcd');
  });
  it('needs fewer than 25 characters', () => {
    expect(StationNameSchema.parse('a'.repeat(24))).toBe('a'.repeat(24));
    expect(firstMessage(StationNameSchema, 'a'.repeat(25))).toBe(
      'Station Name must be less than 25 characters',
    );
  });
  it('allows only A-Z, a-z, 0-9 and underscore', () => {
    expect(StationNameSchema.parse('My_Station_01')).toBe('My_Station_01');
    for (const bad of ['my station', 'my-station', 'estación', 'name@1']) {
      expect(messages(StationNameSchema, bad)).toContain('Allowed characters: A-Z, a-z, 0-9, _');
    }
  });
});

describe('otp', () => {
  it('is required', () => {
    expect(messages(OtpSchema, '')).toEqual(['OTP is required']);
  });
  it('accepts exactly 6 digits, leading zero included', () => {
    expect(OtpSchema.parse('123456')).toBe('123456');
    expect(OtpSchema.parse('012345')).toBe('012345');
  });
  it.each(['12345', '1234567', '12a456', 'abcdef', ' 123456'])('rejects %j', (value) => {
    expect(messages(OtpSchema, value)).toEqual(['OTP must be a 6-digit number']);
  });
});

describe('location', () => {
  it('accepts latitude -90 and 90 as text or number', () => {
    expect(LatitudeSchema.parse('-90')).toBe(-90);
    expect(LatitudeSchema.parse('90')).toBe(90);
    expect(LatitudeSchema.parse(45.5)).toBe(45.5);
    expect(LatitudeSchema.parse(' 40.429 ')).toBe(40.429);
  });
  it('rejects latitude just outside the range', () => {
    expect(messages(LatitudeSchema, '90.0001')).toEqual(['Latitude must be between -90 and 90']);
    expect(messages(LatitudeSchema, -90.0001)).toEqual(['Latitude must be between -90 and 90']);
  });
  it.each(['abc', '12abc', '0x10', '1,5', 'Infinity'])(
    'rejects latitude %j as not a number',
    (value) => {
      expect(messages(LatitudeSchema, value)).toEqual(['Must be a number']);
    },
  );
  it('requires a latitude', () => {
    expect(messages(LatitudeSchema, '')).toEqual(['Latitude is required']);
  });
  it('accepts longitude -180 and 180 and rejects beyond', () => {
    expect(LongitudeSchema.parse('-180')).toBe(-180);
    expect(LongitudeSchema.parse(180)).toBe(180);
    expect(messages(LongitudeSchema, '180.0001')).toEqual([
      'Longitude must be between -180 and 180',
    ]);
    expect(messages(LongitudeSchema, '-180.0001')).toEqual([
      'Longitude must be between -180 and 180',
    ]);
    expect(messages(LongitudeSchema, 'east')).toEqual(['Must be a number']);
  });
});

describe('admin password and new station form', () => {
  it('needs at least 6 characters', () => {
    expect(messages(AdminPasswordSchema, '12345')).toEqual([
      'Password must be at least 6 characters',
    ]);
    expect(AdminPasswordSchema.parse('123456')).toBe('123456');
  });

  const form = {
    name: 'Ground_1',
    otp: '012345',
    locationLat: '40.429',
    locationLon: '-4.249',
    adminPassword: 'secret1',
    adminPasswordConfirm: 'secret1',
    timeZone: 'CET-1CEST,M3.5.0,M10.5.0/3',
  };

  it('turns a valid form into the creation payload', () => {
    const parsed = NewStationFormSchema.parse(form);
    const payload = toCreationPayload(parsed);
    expect(payload).toEqual({
      otp: 12345,
      station_name: 'Ground_1',
      location: [40.429, -4.249],
      admin_pw: 'secret1',
      tz: 'CET-1CEST,M3.5.0,M10.5.0/3',
    });
    expect(CreationPayloadSchema.parse(payload)).toEqual(payload);
  });

  it('reports mismatching passwords on the confirmation field, even with other errors', () => {
    const result = NewStationFormSchema.safeParse({
      ...form,
      name: 'ab',
      adminPasswordConfirm: 'secret2',
    });
    expect(result.success).toBe(false);
    const mismatch = result.error?.issues.find((issue) => issue.message === 'Passwords must match');
    expect(mismatch?.path).toEqual(['adminPasswordConfirm']);
  });

  it('requires a time zone', () => {
    expect(TimeZoneSchema.safeParse('').success).toBe(false);
    expect(NewStationFormSchema.safeParse({ ...form, timeZone: '' }).success).toBe(false);
  });

  it('rejects a creation payload outside the location range', () => {
    const result = CreationPayloadSchema.safeParse({
      otp: 123456,
      station_name: 'Ground_1',
      location: [91, 0],
      admin_pw: 'secret1',
      tz: 'UTC0',
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Latitude must be between -90 and 90',
    ]);
  });
});

describe('e-mail fields', () => {
  it('login e-mail: required, then shape', () => {
    expect(messages(LoginEmailSchema, '')).toEqual(['Email is required']);
    expect(messages(LoginEmailSchema, 'user@example')).toEqual(['Invalid email format']);
    expect(LoginEmailSchema.parse('user@example.org')).toBe('user@example.org');
  });
  it('preferences e-mail: required, x@y.z, tags stripped', () => {
    expect(messages(PreferencesEmailSchema, '')).toEqual(['E-mail is required']);
    expect(messages(PreferencesEmailSchema, 'not-an-email')).toEqual(['E-mail must be valid']);
    expect(PreferencesEmailSchema.parse('<b>user@example.org</b>')).toBe('user@example.org');
  });
  it('terms must be accepted', () => {
    expect(messages(TermsAcceptedSchema, false)).toEqual([
      'You must accept the terms and conditions.',
    ]);
    expect(TermsAcceptedSchema.parse(true)).toBe(true);
  });
  it('bot-check messages are the spec texts', () => {
    expect(CAPTCHA_ERRORS).toEqual({
      error: 'Captcha Error, please try again',
      expired: 'Captcha Expired, please try again',
      unavailable: 'Captcha service is unavailable',
    });
  });
});
