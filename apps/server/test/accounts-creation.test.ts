// New stations by one-time code, with a client that plays the firmware: it polls GET /credentials
// over HTTP until the owner submits its code, then logs in to the MQTT broker with what it got.
import {
  stationSubscriptions,
  stationTopic,
  type FirmwareCredentialsResponse,
} from '@tinygs/contracts';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CREATION_TEXTS } from '../src/accounts/creation';
import { createNetworkPart } from '../src/network/part';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { waitFor, welcomePayload } from './network-helpers';

const TZ = 'CET-1CEST,M3.5.0,M10.5.0/3';
let otpCounter = 100_000 + Math.floor(Math.random() * 800_000);
const nextOtp = () => (otpCounter += 1);

describe.each(DIALECTS)('station creation by one-time code on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
      listen: true,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function payload(otp: number, overrides: Record<string, unknown> = {}) {
    return {
      otp,
      station_name: `Station_${otp}`,
      location: [40.123, -3.456],
      admin_pw: 'secret12',
      tz: TZ,
      ...overrides,
    };
  }
  const submit = (user: LoggedIn, body: object, userId = user.id) =>
    server.app.inject({
      method: 'POST',
      url: `/v1/otp?userId=${userId}`,
      headers: user.headers,
      payload: body,
    });
  const status = async (user: LoggedIn) =>
    (
      await server.app.inject({ method: 'GET', url: '/v1/station_created', headers: user.headers })
    ).json();
  /** The firmware's poll, over real HTTP. */
  const poll = (otp: string) => fetch(`${server.url}/credentials?otp=${otp}`);

  it('hands the credentials to the polling station once, and succeeds when it connects', async () => {
    const owner = await loggedInUser(server);
    const otp = nextOtp();
    expect((await poll(String(otp))).status).toBe(404);

    const started = await submit(owner, payload(otp, { station_name: 'Rooftop_1' }));
    expect(started.statusCode).toBe(200);
    expect(started.json()).toEqual({ status: 'pending', text: CREATION_TEXTS.started });
    expect(await status(owner)).toEqual({ status: 'pending', text: CREATION_TEXTS.started });
    const row = await server.ctx.database.db
      .selectFrom('pendingCreations')
      .selectAll()
      .where('userId', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(row.adminPwEnc).not.toContain('secret12');

    const res = await poll(String(otp));
    expect(res.status).toBe(200);
    const creds = (await res.json()) as FirmwareCredentialsResponse;
    const port = server.ctx.services.network?.mqtt.port;
    expect(creds).toEqual({
      mqtt: {
        user: owner.id,
        // the station's own password (bound to it), never the account-wide one
        pass: expect.stringMatching(/^[\w-]{24}$/),
        server: server.ctx.config.mqtt.publicHost,
        port: String(port),
      },
      config: {
        stationName: 'Rooftop_1',
        adminPw: 'secret12',
        latitude: '40.123',
        longitude: '-3.456',
        tz: TZ,
      },
    });
    expect(creds.mqtt.pass).not.toBe(owner.password);
    expect((await poll(String(otp))).status).toBe(404);
    expect(await status(owner)).toEqual({ status: 'pending', text: CREATION_TEXTS.delivered });
    const wiped = await server.ctx.database.db
      .selectFrom('pendingCreations')
      .select('adminPwEnc')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(wiped.adminPwEnc).toBe('');

    // The station reboots with its new settings and connects like the firmware does.
    const station = await mqtt.connectAsync(`mqtt://127.0.0.1:${creds.mqtt.port}`, {
      username: creds.mqtt.user,
      password: creds.mqtt.pass,
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: 'A1B2C3D4E5F6',
    });
    try {
      const name = creds.config.stationName;
      await station.subscribeAsync(stationSubscriptions(creds.mqtt.user, name), { qos: 1 });
      const location = [Number(creds.config.latitude), Number(creds.config.longitude)];
      await station.publishAsync(
        stationTopic(creds.mqtt.user, name, 'tele', 'welcome'),
        JSON.stringify(welcomePayload({ station_location: location })),
        { qos: 1 },
      );
      const outcome = await waitFor(async () => {
        const s = await status(owner);
        return s.status === 'success' ? s : null;
      });
      expect(outcome.text).toContain('Rooftop_1');
      const stations = await server.ctx.database.db
        .selectFrom('stations')
        .select(['id', 'lat'])
        .where('userId', '=', owner.id)
        .execute();
      expect(stations).toEqual([{ id: `Rooftop_1@${owner.id}`, lat: 40.123 }]);
    } finally {
      await station.endAsync();
    }
  });

  it('validates the payload with the form’s rules and messages', async () => {
    const owner = await loggedInUser(server);
    const cases: [Record<string, unknown>, string][] = [
      [{ otp: 1_234_567 }, 'OTP must be a 6-digit number'],
      [{ otp: 'abc' }, 'otp'],
      [{ station_name: '' }, 'Station Name is required'],
      [{ station_name: 'abc' }, 'Station Name must be more than 3 characters'],
      [{ station_name: 'a'.repeat(25) }, 'Station Name must be less than 25 characters'],
      [{ station_name: 'my station!' }, 'Allowed characters: A-Z, a-z, 0-9, _'],
      [{ location: [90.5, 0] }, 'Latitude must be between -90 and 90'],
      [{ location: [0, -180.5] }, 'Longitude must be between -180 and 180'],
      [{ location: ['x', 0] }, 'Must be a number'],
      [{ admin_pw: 'abc' }, 'Password must be at least 6 characters'],
      [{ tz: ' ' }, 'Time Zone is required'],
    ];
    for (const [override, message] of cases) {
      const res = await submit(owner, payload(nextOtp(), override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    const count = await server.ctx.database.db
      .selectFrom('pendingCreations')
      .select('id')
      .where('userId', '=', owner.id)
      .execute();
    expect(count).toHaveLength(0);
  });

  it('refuses a name the owner already uses and a code already in use or used', async () => {
    const owner = await loggedInUser(server);
    const other = await loggedInUser(server);
    await buildStation(server.ctx.database.db, { userId: owner.id, name: 'Existing_1' });
    const taken = await submit(owner, payload(nextOtp(), { station_name: 'Existing_1' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(
      'You already have a station named Existing_1. Please choose another name.',
    );
    // Another user may use the same name: station ids are {name}@{userId}.
    expect(
      (await submit(other, payload(nextOtp(), { station_name: 'Existing_1' }))).statusCode,
    ).toBe(200);

    const otp = nextOtp();
    expect((await submit(owner, payload(otp))).statusCode).toBe(200);
    const inUse = await submit(other, payload(otp));
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error).toBe(CREATION_TEXTS.codeInUse);
    // The owner may amend and resubmit the same code; the station then gets the amended settings.
    expect((await submit(owner, payload(otp, { station_name: 'Amended_1' }))).statusCode).toBe(200);
    const creds = (await (await poll(String(otp))).json()) as FirmwareCredentialsResponse;
    expect(creds.config.stationName).toBe('Amended_1');
    const used = await submit(other, payload(otp));
    expect(used.statusCode).toBe(409);
    expect(used.json().error).toBe(CREATION_TEXTS.codeUsed);
  });

  it('keeps leading zeros of a code', async () => {
    const owner = await loggedInUser(server);
    expect((await submit(owner, payload(4321, { station_name: 'Zeros_1' }))).statusCode).toBe(200);
    const res = await poll('004321');
    expect(res.status).toBe(200);
    expect(((await res.json()) as FirmwareCredentialsResponse).config.stationName).toBe('Zeros_1');
  });

  it('lets a code expire after 30 minutes', async () => {
    const owner = await loggedInUser(server);
    const otp = nextOtp();
    await submit(owner, payload(otp));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60 * 1000);
    const res = await server.app.inject({
      method: 'GET',
      url: `/credentials?otp=${otp}`,
      remoteAddress: '10.9.9.1',
    });
    expect(res.statusCode).toBe(404);
    expect(await status(owner)).toEqual({ status: 'error', text: CREATION_TEXTS.expired });
  });

  it('reports an error when the user never started a creation', async () => {
    const owner = await loggedInUser(server);
    expect(await status(owner)).toEqual({ status: 'error', text: CREATION_TEXTS.nothing });
  });

  it('keeps creation to the logged-in owner', async () => {
    const owner = await loggedInUser(server);
    const other = await loggedInUser(server);
    expect((await submit(other, payload(nextOtp()), owner.id)).statusCode).toBe(403);
    const anonymous = await server.app.inject({
      method: 'POST',
      url: `/v1/otp?userId=${owner.id}`,
      payload: payload(nextOtp()),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(
      (await server.app.inject({ method: 'GET', url: '/v1/station_created' })).statusCode,
    ).toBe(401);
  });

  it('limits credential polling per client address', async () => {
    for (let i = 0; i < 20; i += 1) {
      const res = await server.app.inject({
        method: 'GET',
        url: `/credentials?otp=${nextOtp()}`,
        remoteAddress: '10.9.9.2',
      });
      expect(res.statusCode).toBe(404);
    }
    const over = await server.app.inject({
      method: 'GET',
      url: `/credentials?otp=${nextOtp()}`,
      remoteAddress: '10.9.9.2',
    });
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatch(/15 seconds/);
    const bad = await server.app.inject({
      method: 'GET',
      url: '/credentials?otp=12a',
      remoteAddress: '10.9.9.3',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('OTP must be a 6-digit number');
  });
});
