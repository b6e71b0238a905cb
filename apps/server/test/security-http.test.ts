// What another signed-in user can see and do with someone else's station over HTTP, and the
// security headers every page and API answer carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationOwnerFieldsSchema } from '@tinygs/contracts';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const OWNER_ONLY = Object.keys(StationOwnerFieldsSchema.shape);

const EDIT = {
  description: 'Roof',
  antenna: 'Dipole',
  antennaBand: [400, 450],
  test: false,
  autoUpdate: true,
  beta: false,
};
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

describe.each(DIALECTS)('another user’s station on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let other: LoggedIn;
  let stationId = '';

  beforeAll(async () => {
    server = await startTestServer(dialect);
    owner = await loggedInUser(server);
    other = await loggedInUser(server);
    stationId = await buildStation(server.ctx.database.db, {
      userId: owner.id,
      name: 'Private_GS',
      status: 1,
      localIp: '192.168.1.77',
      wifiRssi: -61,
      radioStatus: 0,
      tx: 1,
      modemConf: JSON.stringify(LORA),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const getStation = (headers: Record<string, string>) =>
    server.app.inject({ method: 'GET', url: `/v1/station/${stationId}`, headers });

  it('shows the owner-only fields to the owner', async () => {
    const res = await getStation(owner.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      id: stationId,
      local_ip: '192.168.1.77',
      wifiRssi: -61,
      tx: true,
    });
    for (const field of OWNER_ONLY) expect(body, field).toHaveProperty(field);
  });

  it('omits every owner-only field for another user and for visitors', async () => {
    for (const headers of [other.headers, {}]) {
      const res = await getStation(headers);
      expect(res.statusCode).toBe(200);
      const body = res.json<Record<string, unknown>>();
      expect(body.id).toBe(stationId);
      for (const field of OWNER_ONLY) expect(body, field).not.toHaveProperty(field);
      // The private address must not leak under another name either.
      expect(res.body).not.toContain('192.168.1.77');
    }
  });

  it('refuses every change by another user with 403 and leaves the station as it was', async () => {
    const form = new FormData();
    form.append('upload', new Blob([Buffer.from('not really an image')]), 'a.jpg');
    const multipart = new Response(form);
    const imageBody = Buffer.from(await multipart.arrayBuffer());
    const imageType = multipart.headers.get('content-type') ?? '';

    const actions = [
      { method: 'PUT' as const, url: `/v1/station/${stationId}`, payload: EDIT },
      {
        method: 'PUT' as const,
        url: `/v1/station/${stationId}`,
        payload: { autoTune: 0, modem_conf: JSON.stringify(LORA) },
      },
      { method: 'DELETE' as const, url: `/v1/station/${stationId}` },
      { method: 'POST' as const, url: `/v2/station/${stationId}/tx`, payload: { tx: 'AQI=' } },
      { method: 'POST' as const, url: `/v1/station/${stationId}/test` },
      { method: 'DELETE' as const, url: `/v1/station/${stationId}/image/0123456789abcdef` },
    ];
    for (const action of actions) {
      const res = await server.app.inject({ ...action, headers: other.headers });
      expect(res.statusCode, `${action.method} ${action.url}`).toBe(403);
    }
    const upload = await server.app.inject({
      method: 'POST',
      url: `/v1/station/${stationId}/image`,
      headers: { ...other.headers, 'content-type': imageType },
      payload: imageBody,
    });
    expect(upload.statusCode).toBe(403);

    // A session of another user with the owner's user id in the header is no owner either.
    const forged = await server.app.inject({
      method: 'DELETE',
      url: `/v1/station/${stationId}`,
      headers: { userid: owner.id, sessiontoken: other.sessionToken },
    });
    expect(forged.statusCode).toBe(401);

    const row = await server.ctx.database.db
      .selectFrom('stations')
      .selectAll()
      .where('id', '=', stationId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ description: '', antenna: null, modemConf: JSON.stringify(LORA) });
  });
});

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['/', '/packets', '/v1/user?userId=1', '/altcha/challenge', '/healthz', '/v1/nothing'])(
    'GET %s carries CSP frame-ancestors self, nosniff and SAMEORIGIN',
    async (url) => {
      const res = await server.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy'] ?? '');
      expect(csp).toMatch(/frame-ancestors 'self'/);
      expect(csp).toMatch(/default-src 'self'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    },
  );
});
