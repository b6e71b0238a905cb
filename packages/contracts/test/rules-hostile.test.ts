// Hostile input to the validation rules: every rule that runs a pattern or a rewrite checks the
// length first and works in linear time, so no text a client sends makes validation slow.
// The time bounds are loose (a stall of seconds is what they catch); exact figures are in bench/.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CreationPayloadSchema,
  DescriptionSchema,
  FirmwareCredentialsQuerySchema,
  LatitudeSchema,
  LoginEmailSchema,
  LoginRequestSchema,
  PreferencesEmailSchema,
  RxPayloadSchema,
  SearchQuerySchema,
  StationIdSchema,
  StationOperateBodySchema,
  TxBodySchema,
  UserIdSchema,
  WebLoginRequestSchema,
  WelcomePayloadSchema,
  isSimpleEmail,
  stripTags,
} from '../src/index';

const MB = 1024 * 1024;

function timed<T>(run: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = run();
  return { ms: performance.now() - start, value };
}

/** What stripTags did before: the tag pattern replaced until nothing changes. */
function stripTagsByRepeatedReplace(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = current.replace(/<[/!?]?[A-Za-z-][^<>]*>/g, '');
  } while (current !== previous);
  return current;
}

describe('hostile text', () => {
  it('refuses a megabyte e-mail of the shape that made the old pattern backtrack, at once', () => {
    // `[^\s@]+\.[^\s@]+$` tries every dot as the split point, and for each rescans the rest.
    const hostile = `a@${'.'.repeat(MB)}@`;
    for (const schema of [LoginEmailSchema, PreferencesEmailSchema]) {
      const { ms, value } = timed(() => schema.safeParse(hostile));
      expect(value.success).toBe(false);
      expect(ms).toBeLessThan(100);
    }
    const { ms, value } = timed(() =>
      WebLoginRequestSchema.safeParse({ email: hostile, captcha: 'x'.repeat(MB) }),
    );
    expect(value.success).toBe(false);
    expect(ms).toBeLessThan(100);
  });

  it('checks e-mail addresses in linear time even at the longest length allowed', () => {
    // 40,000 such characters took over a second with the old pattern; here every length is cheap.
    const longest = `a@${'.'.repeat(240)}@`;
    const { ms } = timed(() => {
      for (let i = 0; i < 1000; i += 1) isSimpleEmail(longest);
    });
    expect(ms).toBeLessThan(200);
    expect(isSimpleEmail(`a@${'.'.repeat(100_000)}@`)).toBe(false);
  });

  it('accepts and refuses the same addresses as the simple pattern', () => {
    const pattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '@', '.', ' ', '\t', '-'), maxLength: 14 }),
        (text) => {
          expect(isSimpleEmail(text)).toBe(pattern.test(text));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('strips tags in one linear pass with the same result as repeating the pattern', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('<', '>', '/', '!', '?', 'a', 'B', '-', ' ', '3'),
          maxLength: 24,
        }),
        (text) => {
          expect(stripTags(text)).toBe(stripTagsByRepeatedReplace(text));
        },
      ),
      { numRuns: 5000 },
    );
    // Deep nesting took one full rescan per level before: quadratic in the length.
    const nested = `${'<'.repeat(100_000)}${'b>'.repeat(100_000)}`;
    const { ms, value } = timed(() => stripTags(nested));
    expect(value.length).toBe(0);
    expect(ms).toBeLessThan(500);
  });

  it('refuses megabyte fields of every body, query and payload before any pattern runs', () => {
    const big = 'a'.repeat(MB);
    const cases: [string, () => { success: boolean }][] = [
      [
        'description',
        () => DescriptionSchema.safeParse(`${'<'.repeat(MB / 2)}b${'>'.repeat(MB / 2)}`),
      ],
      ['login token', () => LoginRequestSchema.safeParse({ loginToken: big, userId: '1' })],
      ['user id', () => UserIdSchema.safeParse('1'.repeat(MB))],
      ['station id', () => StationIdSchema.safeParse(`${'a'.repeat(MB)}@1`)],
      ['search', () => SearchQuerySchema.safeParse({ q: ` ${big} ` })],
      ['otp', () => FirmwareCredentialsQuerySchema.safeParse({ otp: '1'.repeat(MB) })],
      ['tx', () => TxBodySchema.safeParse({ tx: 'A'.repeat(MB) })],
      ['latitude text', () => LatitudeSchema.safeParse(`${'1'.repeat(MB)}x`)],
      [
        'modem_conf',
        () =>
          StationOperateBodySchema.safeParse({
            autoTune: 0,
            modem_conf: `[${'1,'.repeat(MB / 2)}1]`,
          }),
      ],
      [
        'new station',
        () =>
          CreationPayloadSchema.safeParse({
            otp: 123456,
            station_name: big,
            location: [1, 2],
            admin_pw: big,
            tz: big,
          }),
      ],
      [
        'welcome',
        () =>
          WelcomePayloadSchema.safeParse({
            station_location: [1, 2],
            tx: false,
            version: 1,
            sat: big,
          }),
      ],
      [
        'rx',
        () =>
          RxPayloadSchema.safeParse({
            mode: 'LoRa',
            station_location: [1, 2],
            frequency: 436,
            frequency_offset: 0,
            satellite: 'x',
            NORAD: 1,
            rssi: 0,
            snr: 0,
            frequency_error: 0,
            unix_GS_time: 0,
            usec_time: 0,
            crc_error: false,
            data: 'A'.repeat(MB),
            sf: 10,
            cr: 5,
            bw: 250,
          }),
      ],
    ];
    for (const [name, run] of cases) {
      const { ms, value } = timed(run);
      expect(value.success, name).toBe(false);
      expect(ms, name).toBeLessThan(100);
    }
  });
});
