// The account routes as API clients see them: documented in /openapi.json with their schemas, and
// never answering 500 to anything a client can send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const ROUTES: [string, string][] = [
  ['get', '/altcha/challenge'],
  ['post', '/weblogin'],
  ['post', '/v1/login'],
  ['get', '/v1/logout'],
  ['get', '/v1/user'],
  ['put', '/v1/user/{userId}'],
  ['post', '/v1/user/{userId}/logout-all'],
  ['get', '/v1/user/validate'],
  ['get', '/v1/mqttcred'],
  ['post', '/v1/mqttcred/rotate'],
  ['post', '/v1/otp'],
  ['get', '/v1/station_created'],
  ['get', '/credentials'],
  ['put', '/v1/station/{id}'],
  ['delete', '/v1/station/{id}'],
  ['post', '/v2/station/{id}/tx'],
  ['post', '/v1/station/{id}/test'],
  ['post', '/v1/station/{id}/image'],
  ['delete', '/v1/station/{id}/image/{pictureId}'],
];

const JUNK: (object | string)[] = [
  {},
  [],
  { email: null, captcha: 5 },
  { email: 'a@b.co', captcha: 'e30=' },
  { loginToken: {}, userId: [] },
  { otp: -1, station_name: {}, location: 'x', admin_pw: 1, tz: null },
  { autoTune: 0, modem_conf: '{"mode":"LoRa","freq":"x"}' },
  { autoTune: 0, modem_conf: 'null' },
  { autoTune: 0, modem_conf: '[1,2]' },
  { description: 5, antennaBand: [1] },
  { tx: 'A'.repeat(10_000) },
  { __proto__: { polluted: true }, constructor: { prototype: {} } },
  '"just a string"',
  'null',
  // Nesting deeper than the call stack, within the default body limit.
  '['.repeat(7000) + ']'.repeat(7000),
  '{"a":'.repeat(2500) + '1' + '}'.repeat(2500),
];

describe.each(DIALECTS)('account API surface on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let stationId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    owner = await loggedInUser(server);
    stationId = await buildStation(server.ctx.database.db, {
      userId: owner.id,
      name: 'Surface_1',
      status: 1,
      tx: 1,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('documents every account route with its schemas in /openapi.json', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [method, path] of ROUTES) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation.responses ?? {}), `${method} ${path}`).toContain('200');
    }
    expect(
      doc.paths['/weblogin'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['email', 'captcha']);
    expect(doc.paths['/v1/otp'].post.requestBody).toBeDefined();
    expect(doc.paths['/v2/station/{id}/tx'].post.requestBody).toBeDefined();
  });

  it('answers junk with 4xx, never 500', async () => {
    const urls: ['GET' | 'POST' | 'PUT' | 'DELETE', string][] = [
      ['POST', '/weblogin/'],
      ['POST', '/v1/login'],
      ['PUT', `/v1/user/${owner.id}`],
      ['POST', `/v1/otp?userId=${owner.id}`],
      ['PUT', `/v1/station/${stationId}`],
      ['POST', `/v2/station/${stationId}/tx`],
      ['POST', `/v1/station/${stationId}/image`],
    ];
    for (const [method, url] of urls) {
      for (const payload of JUNK) {
        const res = await server.app.inject({
          method,
          url,
          headers: { ...owner.headers, 'content-type': 'application/json' },
          payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
          remoteAddress: `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        });
        expect(
          res.statusCode,
          `${method} ${url} ${JSON.stringify(payload).slice(0, 80)}: ${res.body}`,
        ).toBeGreaterThanOrEqual(400);
        expect(
          res.statusCode,
          `${method} ${url} ${JSON.stringify(payload).slice(0, 80)}: ${res.body}`,
        ).toBeLessThan(500);
      }
    }
    const odd = [
      '/v1/user?userId=%00',
      `/v1/user?userId=${'9'.repeat(30)}`,
      '/v1/mqttcred?userId=',
      '/credentials?otp=%27%20or%201%3D1',
      '/v1/user/validate?token=' + 'x'.repeat(300),
      '/v1/station_created',
    ];
    for (const url of odd) {
      const res = await server.app.inject({ method: 'GET', url, headers: owner.headers });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const longId = await server.app.inject({
      method: 'DELETE',
      url: `/v1/station/${'a'.repeat(400)}@1`,
      headers: owner.headers,
    });
    expect(longId.statusCode).toBeLessThan(500);
  });
});
