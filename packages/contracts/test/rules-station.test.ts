import { describe, expect, it } from 'vitest';
import {
  AntennaBandSchema,
  AntennaTypeSchema,
  BandwidthKHzSchema,
  Base64TextSchema,
  CodingRateSchema,
  CurrentLimitSchema,
  DescriptionSchema,
  FreqDevSchema,
  FskBitrateSchema,
  GainSchema,
  HexTextSchema,
  MODEM_RANGES,
  NoradSchema,
  PreambleLengthSchema,
  SpreadingFactorSchema,
  SyncWordSchema,
  TxPowerDbmSchema,
  TxTextSchema,
  base64ToBytes,
  bytesToBase64,
  bytesToHex,
  hexToBytes,
  latin1ToBytes,
  stripTags,
} from '../src/index';
import { messages } from './helpers';

describe('description and tags', () => {
  it('strips markup, including nested fragments', () => {
    expect(stripTags('<b>Hello</b> <i>world</i>')).toBe('Hello world');
    expect(stripTags('<<b>script>alert(1)<</b>/script>')).toBe('alert(1)');
    expect(stripTags('3 < 4 and 5 > 2')).toBe('3 < 4 and 5 > 2');
  });
  it('allows 500 characters after stripping, not 501', () => {
    expect(DescriptionSchema.parse(`<p>${'a'.repeat(500)}</p>`)).toBe('a'.repeat(500));
    expect(DescriptionSchema.safeParse('a'.repeat(501)).success).toBe(false);
  });
});

describe('antenna', () => {
  it('accepts listed antenna types only', () => {
    expect(AntennaTypeSchema.parse('QFH Quadrifilar')).toBe('QFH Quadrifilar');
    expect(AntennaTypeSchema.safeParse('Coat hanger').success).toBe(false);
  });
  it('band stays within 90..2500 MHz with low <= high', () => {
    expect(AntennaBandSchema.parse([90, 2500])).toEqual([90, 2500]);
    expect(AntennaBandSchema.parse([433, 433])).toEqual([433, 433]);
    expect(AntennaBandSchema.safeParse([89, 900]).success).toBe(false);
    expect(AntennaBandSchema.safeParse([100, 2501]).success).toBe(false);
    expect(AntennaBandSchema.safeParse([900, 400]).success).toBe(false);
  });
});

describe('text transmission', () => {
  it('rejects an empty payload with the spec message', () => {
    expect(messages(TxTextSchema, '')).toEqual(['You cannot send an empty payload!']);
  });
  it('allows 25 characters, not 26', () => {
    expect(TxTextSchema.parse('x'.repeat(25))).toHaveLength(25);
    expect(TxTextSchema.safeParse('x'.repeat(26)).success).toBe(false);
  });
  it('allows 8-bit characters and rejects wider ones', () => {
    expect(TxTextSchema.parse('Olá ñ ÿ')).toBe('Olá ñ ÿ');
    expect(TxTextSchema.safeParse('price €5').success).toBe(false);
    expect(TxTextSchema.safeParse('🛰').success).toBe(false);
    expect(Array.from(latin1ToBytes('Añ'))).toEqual([0x41, 0xf1]);
  });
});

describe('binary entry', () => {
  it('validates base64 with the spec message', () => {
    expect(Base64TextSchema.parse('SGVsbG8=')).toBe('SGVsbG8=');
    expect(Base64TextSchema.parse('')).toBe('');
    for (const bad of ['SGVsbG8', 'SGV$bG8=', 'S===', 'SGVsbG8=A']) {
      expect(messages(Base64TextSchema, bad)).toEqual(['Invalid base64 string']);
    }
  });
  it('validates hex with the spec message', () => {
    expect(HexTextSchema.parse('48 65 6c 6C')).toBe('48 65 6c 6C');
    for (const bad of ['486', 'zz', '0x48']) {
      expect(messages(HexTextSchema, bad)).toEqual(['Invalid hex string']);
    }
  });
  it('keeps base64 and hex in sync through bytes', () => {
    const bytes = base64ToBytes('SGVsbG8=');
    expect(bytesToHex(bytes)).toBe('48656c6c6f');
    expect(bytesToBase64(hexToBytes('48656c6c6f'))).toBe('SGVsbG8=');
    for (const length of [0, 1, 2, 3, 4, 5]) {
      const sample = Uint8Array.from({ length }, (_, i) => (i * 97 + 200) % 256);
      expect(Array.from(base64ToBytes(bytesToBase64(sample)))).toEqual(Array.from(sample));
    }
  });
});

describe('modem field ranges', () => {
  const cases = [
    { name: 'NORAD', schema: NoradSchema, range: MODEM_RANGES.norad },
    { name: 'SF', schema: SpreadingFactorSchema, range: MODEM_RANGES.sf },
    { name: 'coding rate', schema: CodingRateSchema, range: MODEM_RANGES.cr },
    { name: 'sync word', schema: SyncWordSchema, range: MODEM_RANGES.sw },
    { name: 'preamble', schema: PreambleLengthSchema, range: MODEM_RANGES.pl },
    { name: 'current limit', schema: CurrentLimitSchema, range: MODEM_RANGES.cl },
    { name: 'gain', schema: GainSchema, range: MODEM_RANGES.gain },
    { name: 'TX power', schema: TxPowerDbmSchema, range: MODEM_RANGES.pwr },
    { name: 'bitrate', schema: FskBitrateSchema, range: MODEM_RANGES.br },
    { name: 'frequency deviation', schema: FreqDevSchema, range: MODEM_RANGES.fd },
  ];
  it.each(cases)('$name accepts both ends and rejects one beyond', ({ schema, range }) => {
    expect(schema.parse(range.min)).toBe(range.min);
    expect(schema.parse(range.max)).toBe(range.max);
    expect(schema.safeParse(range.min - 1).success).toBe(false);
    expect(schema.safeParse(range.max + 1).success).toBe(false);
  });
  it('spec ranges are the documented ones', () => {
    expect(MODEM_RANGES.norad).toEqual({ min: 1000, max: 9999999 });
    expect(MODEM_RANGES.pwr).toEqual({ min: -17, max: 30 });
    expect(MODEM_RANGES.sw).toEqual({ min: 0, max: 65535 });
  });
  it('bandwidth is 125..500 in steps of 125 kHz', () => {
    for (const bw of [125, 250, 375, 500]) expect(BandwidthKHzSchema.parse(bw)).toBe(bw);
    for (const bw of [0, 62.5, 200, 625])
      expect(BandwidthKHzSchema.safeParse(bw).success).toBe(false);
  });
  it('integer fields reject fractions and text', () => {
    expect(SpreadingFactorSchema.safeParse(7.5).success).toBe(false);
    expect(messages(SpreadingFactorSchema, '7')).toEqual(['Must be a number']);
    expect(FskBitrateSchema.parse(9.6)).toBe(9.6);
  });
});
