import { describe, expect, it } from 'vitest';
import {
  MQTT_FIELD_MAX_CHARS,
  MQTT_FRAME_BASE64_MAX_CHARS,
  RxPayloadSchema,
  checkRxPayload,
  isBase64,
} from '../src/index';
import { fskRx as fsk, loraRx } from './helpers';
import { agree } from './schemaAgreement';

const lora = { ...loraRx, f_doppler: -9120 };

/** The oldest firmware's payload: none of the optional fields. */
const { iIQ: _iIQ, noisy: _noisy, f_doppler: _fDoppler, ...bare } = lora;

const frameOf = (chars: number) => 'A'.repeat(chars);
/** The schema's own edges, put in every place besides the values of every JSON type. */
const EDGES: unknown[] = [
  'LoRa',
  'FSK',
  'lora',
  -0,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53 - 1),
  1e21,
  46494.5,
  'x'.repeat(MQTT_FIELD_MAX_CHARS),
  'x'.repeat(MQTT_FIELD_MAX_CHARS + 1),
  frameOf(MQTT_FRAME_BASE64_MAX_CHARS),
  frameOf(MQTT_FRAME_BASE64_MAX_CHARS + 4),
  'AAECAw=',
  'AAECA===',
  'AA==AAAA',
  'AAEC\nAw==',
  'AAECAw==\n',
  'AAEC-w==',
  'AAECAwQ',
  [1, 2, 3].map((n) => n / 7),
  [40.4, '-3.7'],
];

describe('checkRxPayload, held to RxPayloadSchema', () => {
  it.each([
    ['a LoRa reception', lora],
    ['an FSK reception', fsk],
    ['a reception without the optional fields', bare],
  ])(
    'accepts and refuses as the schema does every variant of %s, answering the same value',
    (_label, base) => {
      const { accepted, refused } = agree(checkRxPayload, RxPayloadSchema, base, EDGES);
      expect(accepted).toBeGreaterThan(40);
      expect(refused).toBeGreaterThan(500);
    },
  );

  it('refuses what is not a JSON object', () => {
    for (const value of [null, 'x', 1, [], [lora]]) {
      expect(RxPayloadSchema.safeParse(value).success).toBe(false);
      expect(checkRxPayload(value)).toBeNull();
    }
  });
});

// The pattern isBase64 was until a loop replaced it: canonical padded base64.
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Every string of up to `max` characters from `alphabet`. */
function* strings(alphabet: string, max: number): Generator<string> {
  yield '';
  let level = [''];
  for (let n = 1; n <= max; n += 1) {
    const next: string[] = [];
    for (const prefix of level) for (const c of alphabet) next.push(prefix + c);
    yield* next;
    level = next;
  }
}

describe('isBase64', () => {
  it('agrees with the canonical base64 pattern on every short string of telling characters', () => {
    // letters, digits, both symbols, padding, and characters just outside the alphabet
    let checked = 0;
    const disagree: string[] = [];
    for (const text of strings('Az9+/=-\n\u00e9', 6)) {
      if (isBase64(text) !== BASE64_PATTERN.test(text)) disagree.push(text);
      checked += 1;
    }
    expect(disagree).toEqual([]);
    expect(checked).toBeGreaterThan(500_000);
  });

  it('takes frames as stations send them and refuses broken ones', () => {
    expect(isBase64(Buffer.from('any frame of bytes').toString('base64'))).toBe(true);
    expect(isBase64(Buffer.alloc(255, 0xfe).toString('base64'))).toBe(true);
    expect(isBase64('jv////8KBgHJwJg')).toBe(false);
    expect(isBase64('jv////8KBgHJwJg=\u0000')).toBe(false);
  });
});
