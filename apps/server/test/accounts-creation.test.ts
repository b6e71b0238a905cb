// New stations by one-time code, with a client that plays the firmware: it polls GET /credentials
// over HTTP until the owner submits its code, then logs in to the MQTT broker with what it got.
import {
  stationSubscriptions,
  stationTopic,
  type FirmwareCredentialsResponse,
} from '@tinygs/contracts';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tokenHousekeepingPart } from '../src/accounts/housekeeping';
import { CREATION_LIMITS, CREATION_TEXTS } from '../src/accounts/creation';
import { accountsState } from '../src/accounts/state';
import { createNetworkPart } from '../src/network/part';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { waitFor, welcomePayload } from './network-helpers';

const TZ = 'CET-1CEST,M3.5.0,M10.5.0/3';
let otpCounter = 100_000 + Math.floor(Math.random() * 800_000);
const nextOtp = () => (otpCounter += 1);
let addressCounter = 0;
/** A client address of its own per request, so that the per-client limits stay out of the way. */
function nextAddress(): string {
  addressCounter += 1;
  return `10.20.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

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
      remoteAddress: nextAddress(),
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

  it('refuses a name the owner already uses, and the owner’s own code once used', async () => {
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
    // The owner may amend and resubmit the same code; the station then gets the amended settings.
    expect((await submit(owner, payload(otp, { station_name: 'Amended_1' }))).statusCode).toBe(200);
    const creds = (await (await poll(String(otp))).json()) as FirmwareCredentialsResponse;
    expect(creds.config.stationName).toBe('Amended_1');
    const used = await submit(owner, payload(otp));
    expect(used.statusCode).toBe(409);
    expect(used.json().error).toBe(CREATION_TEXTS.codeUsed);
  });

  it('answers a code another user submitted like any code, and gives its station to nobody', async () => {
    const attacker = await loggedInUser(server);
    const owner = await loggedInUser(server);
    const fresh = await submit(owner, payload(nextOtp(), { station_name: 'Fresh_1' }));
    // The attacker submits a code before the station that will show it is set up...
    const otp = nextOtp();
    const first = await submit(attacker, payload(otp, { station_name: 'Captured_1' }));
    // ...and the owner, whose station shows it, submits it too: the same answer as any new code.
    const second = await submit(owner, payload(otp, { station_name: 'Rightful_1' }));
    for (const res of [first, second]) {
      expect(res.statusCode).toBe(fresh.statusCode);
      expect(res.body).toBe(fresh.body);
    }
    expect(await status(owner)).toEqual(await status(attacker));

    // With two claimants the station's poll is answered as for an unknown code: nobody gets it.
    const unknown = await poll(String(nextOtp()));
    const res = await poll(String(otp));
    expect(res.status).toBe(unknown.status);
    expect(await res.text()).toBe(await unknown.text());
    const issued = await server.ctx.database.db
      .selectFrom('stationCredentials')
      .select('stationName')
      .where('userId', 'in', [attacker.id, owner.id])
      .execute();
    expect(issued).toEqual([]);
    // Both claims expire the way a mistyped code does, telling neither user about the other.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60 * 1000);
    expect(await status(attacker)).toEqual({ status: 'error', text: CREATION_TEXTS.expired });
    expect(await status(owner)).toEqual({ status: 'error', text: CREATION_TEXTS.expired });
  });

  it('answers a code another user’s station already collected like any code', async () => {
    const owner = await loggedInUser(server);
    const other = await loggedInUser(server);
    const otp = nextOtp();
    await submit(owner, payload(otp, { station_name: 'Collected_1' }));
    expect((await poll(String(otp))).status).toBe(200);
    const fresh = await submit(other, payload(nextOtp(), { station_name: 'Other_1' }));
    const late = await submit(other, payload(otp, { station_name: 'Other_2' }));
    expect(late.statusCode).toBe(fresh.statusCode);
    expect(late.body).toBe(fresh.body);
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
  it('refuses one user’s 40 code submissions in a row early, storing none past the cap', async () => {
    const sweeper = await loggedInUser(server);
    const results = [];
    for (let i = 0; i < 40; i += 1) results.push(await submit(sweeper, payload(nextOtp())));
    const cap = CREATION_LIMITS.pendingPerUser;
    const perHour = accountsState(server.ctx).limits.creationsPerUser.limit;
    expect(results.slice(0, cap).map((r) => r.statusCode)).toEqual(Array(cap).fill(200));
    for (const [i, res] of results.slice(cap).entries()) {
      expect(res.statusCode, `submission ${cap + i + 1}`).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().error).toBe(
        cap + i < perHour ? CREATION_TEXTS.tooManyPending : CREATION_TEXTS.tooManySubmissions,
      );
    }
    // The code waiting longest frees a place when it expires, 30 minutes on.
    expect(Number(results[cap]?.headers['retry-after'])).toBeGreaterThan(29 * 60);
    const rows = await server.ctx.database.db
      .selectFrom('pendingCreations')
      .select('otp')
      .where('userId', '=', sweeper.id)
      .execute();
    expect(rows).toHaveLength(cap);
    // Other users are not affected.
    const other = await loggedInUser(server);
    expect((await submit(other, payload(nextOtp()))).statusCode).toBe(200);
  });

  it('lets a user with the most codes waiting amend one of them', async () => {
    const owner = await loggedInUser(server);
    const otps = Array.from({ length: CREATION_LIMITS.pendingPerUser }, nextOtp);
    for (const otp of otps) expect((await submit(owner, payload(otp))).statusCode).toBe(200);
    const [first = 0] = otps;
    const amended = await submit(owner, payload(first, { station_name: 'Amended_2' }));
    expect(amended.statusCode).toBe(200);
    expect((await submit(owner, payload(nextOtp()))).statusCode).toBe(429);
    const res = await server.app.inject({
      method: 'GET',
      url: `/credentials?otp=${first}`,
      remoteAddress: nextAddress(),
    });
    expect(res.json<FirmwareCredentialsResponse>().config.stationName).toBe('Amended_2');
  });

  it('limits each user’s submissions per hour, even when every code is collected', async () => {
    const busy = await loggedInUser(server);
    const perHour = accountsState(server.ctx).limits.creationsPerUser.limit;
    for (let i = 0; i < perHour; i += 1) {
      const otp = nextOtp();
      const res = await submit(busy, payload(otp, { station_name: `Busy_${i}` }));
      expect(res.statusCode, `submission ${i + 1}`).toBe(200);
      const collected = await server.app.inject({
        method: 'GET',
        url: `/credentials?otp=${otp}`,
        remoteAddress: nextAddress(),
      });
      expect(collected.statusCode).toBe(200);
    }
    const over = await submit(busy, payload(nextOtp(), { station_name: 'Busy_x' }));
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toBe(CREATION_TEXTS.tooManySubmissions);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('deletes finished creations a day old in housekeeping, keeping newer ones', async () => {
    const owner = await loggedInUser(server);
    const db = server.ctx.database.db;
    const old = nextOtp();
    await submit(owner, payload(old, { station_name: 'Old_1' }));
    await server.app.inject({
      method: 'GET',
      url: `/credentials?otp=${old}`,
      remoteAddress: nextAddress(),
    });
    await submit(owner, payload(nextOtp(), { station_name: 'Expired_1' }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + CREATION_LIMITS.retentionMs + 60_000);
    await submit(owner, payload(nextOtp(), { station_name: 'New_1' }));
    const names = async () =>
      (
        await db
          .selectFrom('pendingCreations')
          .select('stationName')
          .where('userId', '=', owner.id)
          .orderBy('stationName')
          .execute()
      ).map((r) => r.stationName);
    expect(await names()).toEqual(['Expired_1', 'New_1', 'Old_1']);
    const running = await tokenHousekeepingPart.start(server.ctx);
    await running?.stop();
    expect(await names()).toEqual(['New_1']);
  });

  // Last: it uses up the route's overall budget.
  it('limits credential polling overall, whatever the number of clients', async () => {
    const clients = Array.from({ length: 30 }, nextAddress);
    const polls = clients.flatMap((address) =>
      Array.from({ length: 20 }, () =>
        server.app.inject({
          method: 'GET',
          url: `/credentials?otp=${nextOtp()}`,
          remoteAddress: address,
        }),
      ),
    );
    const results = await Promise.all(polls);
    const answered = results.filter((r) => r.statusCode === 404).length;
    const refused = results.filter((r) => r.statusCode === 429);
    expect(answered + refused.length).toBe(results.length);
    // No client went over its own 20 a minute: every refusal is the overall ceiling's.
    expect(refused.length).toBeGreaterThan(0);
    expect(answered).toBeLessThan(560);
    for (const res of refused) expect(res.json().error).toMatch(/server is busy/);
  });
});
