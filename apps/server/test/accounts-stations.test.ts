// Owner actions on a station connected like real firmware: edits, tuning and transmissions reach the
// station as PROTOCOL.md commands; another user gets 403, an anonymous caller 401.
import {
  BETA_NEEDS_AUTO_UPDATE_ERROR,
  MODEM_CONF_JSON_ERROR,
  MODEM_CONF_REQUIRED_ERROR,
  TX_EMPTY_ERROR,
  TX_TOO_LONG_ERROR,
} from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY_INACTIVE_DELETE, TX_DISABLED } from '../src/accounts/station-owner';
import { STATION_OFFLINE } from '../src/accounts/station-commands';
import { createNetworkPart } from '../src/network/part';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, waitFor } from './network-helpers';

const LORA = {
  mode: 'LoRa',
  sat: 'Norbi',
  NORAD: 46494,
  freq: 436.703,
  bw: 250,
  sf: 10,
  cr: 5,
  sw: 18,
  pl: 8,
  cl: 120,
  gain: 0,
  pwr: 5,
  crc: true,
  fldro: 1,
};
const FSK = {
  mode: 'FSK',
  sat: 'FossaSat-2E11',
  NORAD: 52750,
  freq: 436.9,
  br: 9.6,
  fd: 4.8,
  pl: 32,
  ook: 2,
  pwr: 5,
  fsw: [147, 11],
};
const EDIT = {
  description: 'Roof',
  antenna: 'Dipole',
  antennaBand: [400, 450],
  test: false,
  autoUpdate: true,
  beta: false,
};

interface Received {
  topic: string;
  payload: Buffer;
}

describe.each(DIALECTS)('owner actions on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let other: LoggedIn;
  let station: MqttClient;
  let stationId: string;
  const received: Received[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    owner = await loggedInUser(server);
    other = await loggedInUser(server);
    station = await connectStation(server, owner, 'Owned_1');
    station.on('message', (topic, payload) => received.push({ topic, payload }));
    stationId = `Owned_1@${owner.id}`;
    await waitFor(() =>
      server.ctx.database.db
        .selectFrom('stations')
        .select('id')
        .where('id', '=', stationId)
        .executeTakeFirst(),
    );
  });
  afterAll(async () => {
    await station?.endAsync();
    await server?.stop();
  });

  const call = (
    method: 'PUT' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object | string,
  ) => server.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const stationRow = (id = stationId) =>
    server.ctx.database.db
      .selectFrom('stations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const command = (name: string, after: number) =>
    waitFor(() =>
      received.slice(after).find((m) => m.topic === `tinygs/${owner.id}/Owned_1/cmnd/${name}`),
    );

  it('saves the edit form, tags stripped', async () => {
    const res = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
      ...EDIT,
      description: '<script>x</script>Roof <b>mast</b>',
      autoUpdate: true,
      beta: true,
      test: true,
    });
    expect(res.statusCode).toBe(200);
    const row = await stationRow();
    expect(row).toMatchObject({
      description: 'xRoof mast',
      antenna: 'Dipole',
      antennaBandLowMhz: 400,
      antennaBandHighMhz: 450,
      test: 1,
      autoUpdate: 1,
      beta: 1,
    });
  });

  it('refuses each invalid edit field with the form’s message, naming the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { description: 'x'.repeat(501) },
        'body.description',
        'Description must be at most 500 characters',
      ],
      [{ antenna: 'Bed spring' }, 'body.antenna', 'Choose an antenna type from the list'],
      [
        { antennaBand: [80, 900] },
        'body.antennaBand.0',
        'Antenna band must be between 90 and 2500 MHz',
      ],
      [
        { antennaBand: [100, 2600] },
        'body.antennaBand.1',
        'Antenna band must be between 90 and 2500 MHz',
      ],
      [{ beta: true, autoUpdate: false }, 'body.beta', BETA_NEEDS_AUTO_UPDATE_ERROR],
      [{ test: 'yes' }, 'body.test', ''],
    ];
    for (const [override, path, message] of cases) {
      const res = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
        ...EDIT,
        ...override,
      });
      expect(res.statusCode, path).toBe(400);
      const body = res.json();
      expect(
        body.issues.map((i: { path: string }) => i.path),
        path,
      ).toContain(path);
      expect(body.error).toContain(message);
    }
    const broken = await call(
      'PUT',
      `/v1/station/${stationId}`,
      { ...owner.headers, 'content-type': 'application/json' },
      '{"description":',
    );
    expect(broken.statusCode).toBe(400);
    expect((await call('PUT', `/v1/station/${stationId}`, owner.headers, [])).statusCode).toBe(400);
  });

  it('tunes the station with begine when auto tune is disabled', async () => {
    const before = received.length;
    const res = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
      autoTune: 0,
      modem_conf: JSON.stringify(LORA),
    });
    expect(res.statusCode).toBe(200);
    const begine = await command('begine', before);
    expect(JSON.parse(begine.payload.toString())).toEqual(LORA);
    const row = await stationRow();
    expect(row.autoTune).toBe(0);
    expect(JSON.parse(row.modemConf ?? '')).toEqual(LORA);

    const fsk = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
      autoTune: 0,
      modem_conf: JSON.stringify(FSK),
    });
    expect(fsk.statusCode).toBe(200);
    expect(JSON.parse((await command('begine', before + 1)).payload.toString())).toEqual(FSK);
  });

  it('switches to auto tune on a band', async () => {
    const res = await call('PUT', `/v1/station/${stationId}`, owner.headers, { autoTune: 433 });
    expect(res.statusCode).toBe(200);
    expect((await stationRow()).autoTune).toBe(433);
  });

  it('refuses modem settings outside the form’s ranges', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sf: 13 }, 'Spreading factor must be between 7 and 12'],
      [{ bw: 100 }, 'Bandwidth must be between 125 and 500 kHz'],
      [{ bw: 200 }, 'Bandwidth must be a multiple of 125 kHz'],
      [{ cr: 9 }, 'Coding rate must be between 5 and 8'],
      [{ sw: 70000 }, 'Sync word must be between 0 and 65535'],
      [{ pl: 3 }, 'Preamble length must be between 4 and 12'],
      [{ cl: 251 }, 'Current limit must be between 0 and 250'],
      [{ gain: 31 }, 'Gain must be between 0 and 30'],
      [{ pwr: 31 }, 'TX power must be between -17 and 30'],
      [{ NORAD: 999 }, 'NORAD must be between 1000 and 9999999'],
    ];
    for (const [override, message] of cases) {
      const res = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
        autoTune: 0,
        modem_conf: JSON.stringify({ ...LORA, ...override }),
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toContain(message);
      expect(res.json().error).toContain('body.modem_conf');
    }
    const fsk: [Record<string, unknown>, string][] = [
      [{ br: 256 }, 'Bitrate must be between 0 and 255'],
      [{ fd: 256 }, 'Frequency deviation must be between 0 and 255'],
    ];
    for (const [override, message] of fsk) {
      const res = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
        autoTune: 0,
        modem_conf: JSON.stringify({ ...FSK, ...override }),
      });
      expect(res.json().error).toContain(message);
    }
    const missing = await call('PUT', `/v1/station/${stationId}`, owner.headers, { autoTune: 0 });
    expect(missing.json().error).toContain(MODEM_CONF_REQUIRED_ERROR);
    const notJson = await call('PUT', `/v1/station/${stationId}`, owner.headers, {
      autoTune: 0,
      modem_conf: '{mode',
    });
    expect(notJson.json().error).toContain(MODEM_CONF_JSON_ERROR);
    const band = await call('PUT', `/v1/station/${stationId}`, owner.headers, { autoTune: 500 });
    expect(band.statusCode).toBe(400);
    expect(band.json().error).toContain('body.autoTune');
  });

  it('transmits base64 bytes and test frames through the station', async () => {
    const before = received.length;
    const bytes = Buffer.from([0x00, 0xff, 0x10, 0x41]);
    const res = await call('POST', `/v2/station/${stationId}/tx`, owner.headers, {
      tx: bytes.toString('base64'),
    });
    expect(res.statusCode).toBe(200);
    expect((await command('tx', before)).payload).toEqual(bytes);

    const test = await server.app.inject({
      method: 'POST',
      url: `/v1/station/${stationId}/test`,
      headers: owner.headers,
    });
    expect(test.statusCode).toBe(200);
    const frame = (await command('tx', before + 1)).payload;
    expect(frame.subarray(0, 12).toString('latin1')).toBe('TinyGS-test ');
    expect(frame.length).toBeLessThanOrEqual(255);
  });

  it('refuses transmissions that are empty, too long or not base64', async () => {
    const cases: [object, string][] = [
      [{ tx: '' }, TX_EMPTY_ERROR],
      [{ tx: Buffer.alloc(256, 1).toString('base64') }, TX_TOO_LONG_ERROR],
      [{ tx: 'abc' }, 'Invalid base64 string'],
      [{}, TX_EMPTY_ERROR],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', `/v2/station/${stationId}/tx`, owner.headers, payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toContain(message);
    }
    const max = await call('POST', `/v2/station/${stationId}/tx`, owner.headers, {
      tx: Buffer.alloc(255, 1).toString('base64'),
    });
    expect(max.statusCode).toBe(200);
  });

  it('refuses transmission when the station hardware does not allow it', async () => {
    const quiet = await connectStation(server, owner, 'Quiet_1', { tx: false });
    try {
      const id = `Quiet_1@${owner.id}`;
      await waitFor(() =>
        server.ctx.database.db
          .selectFrom('stations')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst(),
      );
      for (const url of [`/v2/station/${id}/tx`, `/v1/station/${id}/test`]) {
        const res = await call(
          'POST',
          url,
          owner.headers,
          url.includes('/tx') ? { tx: 'AQI=' } : undefined,
        );
        expect(res.statusCode, url).toBe(409);
        expect(res.json().error).toBe(TX_DISABLED);
      }
    } finally {
      await quiet.endAsync();
    }
  });

  it('answers 409 to operate and transmit when the station is offline', async () => {
    const id = await buildStation(server.ctx.database.db, {
      userId: owner.id,
      name: 'Sleeping_1',
      tx: 1,
    });
    const operate = await call('PUT', `/v1/station/${id}`, owner.headers, {
      autoTune: 0,
      modem_conf: JSON.stringify(LORA),
    });
    expect(operate.statusCode).toBe(409);
    expect(operate.json().error).toBe(STATION_OFFLINE);
    const tx = await call('POST', `/v2/station/${id}/tx`, owner.headers, { tx: 'AQI=' });
    expect(tx.statusCode).toBe(409);
    // Editing needs no connection.
    expect((await call('PUT', `/v1/station/${id}`, owner.headers, EDIT)).statusCode).toBe(200);
  });

  it('deletes only offline stations, keeping the network’s packets', async () => {
    const online = await call('DELETE', `/v1/station/${stationId}`, owner.headers);
    expect(online.statusCode).toBe(409);
    expect(online.json().error).toBe(ONLY_INACTIVE_DELETE);

    const db = server.ctx.database.db;
    const id = await buildStation(db, { userId: owner.id, name: 'Retired_1' });
    await db
      .insertInto('stationPictures')
      .values({
        id: 'abcdef0123456789',
        stationId: id,
        status: 1,
        size: 10,
        origName: 'a.jpg',
        type: 'image/jpeg',
        createdAt: Date.now(),
      })
      .execute();
    await db
      .insertInto('receptions')
      .values({
        packetId: 'p1',
        stationId: id,
        userId: owner.id,
        serverTime: Date.now(),
        lat: 1,
        lng: 2,
        crcError: 0,
      })
      .execute();
    const res = await call('DELETE', `/v1/station/${id}`, owner.headers);
    expect(res.statusCode).toBe(200);
    expect(
      await db.selectFrom('stations').select('id').where('id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db.selectFrom('stationPictures').select('id').where('stationId', '=', id).execute(),
    ).toHaveLength(0);
    expect(
      await db.selectFrom('receptions').select('packetId').where('stationId', '=', id).execute(),
    ).toHaveLength(1);
    expect((await call('DELETE', `/v1/station/${id}`, owner.headers)).statusCode).toBe(404);
  });

  it('lets only the owner act: 403 for another user, 401 anonymous, 404 unknown', async () => {
    const before = received.length;
    const actions: { method: 'PUT' | 'POST' | 'DELETE'; url: string; payload?: object }[] = [
      { method: 'PUT', url: `/v1/station/${stationId}`, payload: EDIT },
      {
        method: 'PUT',
        url: `/v1/station/${stationId}`,
        payload: { autoTune: 0, modem_conf: JSON.stringify(LORA) },
      },
      { method: 'DELETE', url: `/v1/station/${stationId}` },
      { method: 'POST', url: `/v2/station/${stationId}/tx`, payload: { tx: 'AQI=' } },
      { method: 'POST', url: `/v1/station/${stationId}/test` },
      { method: 'DELETE', url: `/v1/station/${stationId}/image/0123456789abcdef` },
    ];
    for (const action of actions) {
      const label = `${action.method} ${action.url}`;
      expect(
        (await call(action.method, action.url, other.headers, action.payload)).statusCode,
        label,
      ).toBe(403);
      expect((await call(action.method, action.url, {}, action.payload)).statusCode, label).toBe(
        401,
      );
      // Even with a body that would not validate, an anonymous caller gets 401.
      expect(
        (await call(action.method, action.url, {}, action.payload ? { junk: true } : undefined))
          .statusCode,
        label,
      ).toBe(401);
      const unknown = action.url.replace(stationId, `Nobody_1@${owner.id}`);
      expect(
        (await call(action.method, unknown, owner.headers, action.payload)).statusCode,
        label,
      ).toBe(404);
    }
    const malformed = await call('PUT', '/v1/station/not-a-station-id', owner.headers, EDIT);
    expect(malformed.statusCode).toBe(400);
    await new Promise((r) => setTimeout(r, 100));
    expect(received.slice(before).filter((m) => m.topic.includes('/cmnd/'))).toHaveLength(0);
    expect((await stationRow()).description).not.toBe('');
  });
});
