import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../src/index';
import {
  AuthHeadersSchema,
  BETA_NEEDS_AUTO_UPDATE_ERROR,
  ExportQuerySchema,
  FirmwareCredentialsResponseSchema,
  MODEM_CONF_JSON_ERROR,
  MODEM_CONF_REQUIRED_ERROR,
  StationEditBodySchema,
  StationOperateBodySchema,
  StationPacketsQuerySchema,
  TxBodySchema,
  bytesToBase64,
  parseStationUpdateBody,
} from '../src/index';
import { messages } from './helpers';

const lora = {
  mode: 'LoRa',
  freq: 401.7,
  bw: 125,
  sf: 11,
  cr: 8,
  sw: 18,
  pwr: 5,
  cl: 120,
  pl: 8,
  gain: 0,
  crc: true,
  fldro: 1,
  sat: 'FossaSat-2E11',
  NORAD: 52750,
};
const fsk = {
  mode: 'FSK',
  freq: 436.9,
  br: 9.6,
  fd: 4.8,
  fsw: [147, 11, 81, 222],
  ook: 2,
  len: 74,
  pl: 32,
  pwr: 5,
  sat: 'Some-Sat',
  NORAD: 12345,
};

describe('GET /v1/packets query', () => {
  it('coerces before from text', () => {
    expect(
      StationPacketsQuerySchema.parse({ station: 'Ground_1@123', before: '1668986132325' }),
    ).toEqual({
      station: 'Ground_1@123',
      before: 1668986132325,
    });
    expect(StationPacketsQuerySchema.parse({ station: 'Ground_1@123' }).before).toBeUndefined();
  });
  it.each(['abc', '-5', '0', '1.5', ''])('rejects before=%j with a clear message', (before) => {
    expect(messages(StationPacketsQuerySchema, { station: 'Ground_1@123', before })).toContain(
      'before must be a positive whole number (epoch milliseconds)',
    );
  });
  it('rejects a malformed station id', () => {
    expect(StationPacketsQuerySchema.safeParse({ station: 'Ground_1' }).success).toBe(false);
  });
});

describe('TX body', () => {
  const b64 = (length: number) => bytesToBase64(new Uint8Array(length).fill(65));
  it('accepts 1 to 255 bytes', () => {
    expect(TxBodySchema.parse({ tx: b64(1) }).tx).toBe('QQ==');
    expect(TxBodySchema.safeParse({ tx: b64(255) }).success).toBe(true);
  });
  it('rejects empty, too long and invalid base64', () => {
    expect(messages(TxBodySchema, { tx: '' })).toEqual(['You cannot send an empty payload!']);
    expect(messages(TxBodySchema, { tx: b64(256) })).toEqual(['Payload must be at most 255 bytes']);
    expect(messages(TxBodySchema, { tx: 'not base64' })).toEqual(['Invalid base64 string']);
  });
});

describe('operate body', () => {
  it('accepts a band without modem_conf', () => {
    expect(StationOperateBodySchema.parse({ autoTune: 433 })).toEqual({ autoTune: 433 });
  });
  it('rejects an unknown band', () => {
    expect(StationOperateBodySchema.safeParse({ autoTune: 868 }).success).toBe(false);
  });
  it('requires valid modem_conf JSON when auto tune is disabled', () => {
    expect(messages(StationOperateBodySchema, { autoTune: 0 })).toEqual([
      MODEM_CONF_REQUIRED_ERROR,
    ]);
    expect(messages(StationOperateBodySchema, { autoTune: 0, modem_conf: '{mode:' })).toEqual([
      MODEM_CONF_JSON_ERROR,
    ]);
    expect(
      StationOperateBodySchema.safeParse({ autoTune: 0, modem_conf: JSON.stringify(lora) }).success,
    ).toBe(true);
    expect(
      StationOperateBodySchema.safeParse({ autoTune: 0, modem_conf: JSON.stringify(fsk) }).success,
    ).toBe(true);
  });
  it('checks modem ranges inside modem_conf and points at the field', () => {
    const result = StationOperateBodySchema.safeParse({
      autoTune: 0,
      modem_conf: JSON.stringify({ ...lora, sf: 13 }),
    });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['modem_conf', 'sf'],
      message: 'Spreading factor must be between 7 and 12',
    });
    for (const bad of [
      { bw: 62.5 },
      { pwr: 31 },
      { pwr: -18 },
      { NORAD: 999 },
      { pl: 13 },
      { crc: 1 },
    ]) {
      const body = { autoTune: 0, modem_conf: JSON.stringify({ ...lora, ...bad }) };
      expect(StationOperateBodySchema.safeParse(body).success).toBe(false);
    }
    for (const bad of [{ br: 256 }, { fd: -1 }, { ook: 5 }, { fsw: [1, 2, 3, 4, 5, 6, 7, 8, 9] }]) {
      const body = { autoTune: 0, modem_conf: JSON.stringify({ ...fsk, ...bad }) };
      expect(StationOperateBodySchema.safeParse(body).success).toBe(false);
    }
  });
});

describe('edit body', () => {
  const edit = {
    description: '<b>Roof</b> station',
    antenna: 'Dipole',
    antennaBand: [100, 960],
    test: false,
    autoUpdate: true,
    beta: true,
  };
  it('strips tags from the description', () => {
    expect(StationEditBodySchema.parse(edit).description).toBe('Roof station');
  });
  it('allows beta only with auto update', () => {
    expect(messages(StationEditBodySchema, { ...edit, autoUpdate: false })).toEqual([
      BETA_NEEDS_AUTO_UPDATE_ERROR,
    ]);
    expect(
      StationEditBodySchema.safeParse({ ...edit, autoUpdate: false, beta: false }).success,
    ).toBe(true);
  });
  it('routes PUT bodies to the right schema', () => {
    expect(parseStationUpdateBody(edit)).toMatchObject({ success: true, kind: 'edit' });
    expect(parseStationUpdateBody({ autoTune: 137 })).toMatchObject({
      success: true,
      kind: 'operate',
    });
    expect(parseStationUpdateBody({ autoTune: 0 })).toMatchObject({
      success: false,
      kind: 'operate',
    });
  });
});

describe('other calls', () => {
  it('auth headers need a numeric user id and a token', () => {
    expect(
      AuthHeadersSchema.safeParse({ userid: '123', sessiontoken: 'abc', host: 'x' }).success,
    ).toBe(true);
    expect(AuthHeadersSchema.safeParse({ userid: 'bob', sessiontoken: 'abc' }).success).toBe(false);
    expect(AuthHeadersSchema.safeParse({ userid: '123' }).success).toBe(false);
  });
  it('firmware credentials keep port and coordinates as text', () => {
    const body = {
      mqtt: { user: '123', pass: 'p', server: 'mqtt.example.org', port: '8883' },
      config: {
        stationName: 'Ground_1',
        adminPw: 'secret1',
        latitude: '40.4',
        longitude: '-3.7',
        tz: 'UTC0',
      },
    };
    expect(FirmwareCredentialsResponseSchema.parse(body)).toEqual(body);
    expect(
      FirmwareCredentialsResponseSchema.safeParse({ ...body, mqtt: { ...body.mqtt, port: 8883 } })
        .success,
    ).toBe(false);
  });
  it('export needs a satellite or station and an ordered range', () => {
    expect(ExportQuerySchema.parse({ satellite: 'Norbi', from: '1', to: '2' })).toMatchObject({
      from: 1,
      to: 2,
    });
    expect(ExportQuerySchema.safeParse({}).success).toBe(false);
    expect(ExportQuerySchema.safeParse({ satellite: 'Norbi', from: '5', to: '2' }).success).toBe(
      false,
    );
  });
});

describe('documentation', () => {
  // The server generates its OpenAPI page from these schemas.
  it('every exported schema converts to JSON Schema for input and output', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const [name, value] of Object.entries(contracts)) {
      if (!name.endsWith('Schema') || !(value instanceof z.ZodType)) continue;
      checked += 1;
      for (const io of ['input', 'output'] as const) {
        try {
          z.toJSONSchema(value, { io, unrepresentable: 'throw' });
        } catch (error) {
          failures.push(`${name} (${io}): ${(error as Error).message}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(failures).toEqual([]);
  });
});
