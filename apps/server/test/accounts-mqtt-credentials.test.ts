// Broker credentials of an account: a station created with a one-time code logs in with a password
// of its own that reaches that station's topics only, and the owner can rotate the account-wide
// password from the User Console, which refuses the old one at once and closes its connections.
import {
  stationSubscriptions,
  stationTopic,
  type FirmwareCredentialsResponse,
} from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROTATIONS } from '../src/accounts/mqtt-password';
import { UNUSED_CREDENTIAL_KEEP_MS } from '../src/accounts/station-credential';
import { encryptSecret } from '../src/lib/crypto';
import { createNetworkPart } from '../src/network/part';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation, TEST_SERVER_SECRET } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  closed,
  connectAs,
  connectStation,
  subscribeCodes,
  waitFor,
  welcomePayload,
} from './network-helpers';

let otpCounter = 100_000 + Math.floor(Math.random() * 800_000);

describe.each(DIALECTS)('MQTT credentials of an account on %s', (dialect) => {
  let server: TestServer;
  const clients: MqttClient[] = [];
  const db = () => server.ctx.database.db;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.end(true);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The owner submits a code and the station collects its credentials, as in PROTOCOL.md. */
  async function createByCode(owner: LoggedIn, name: string) {
    otpCounter += 1;
    const submitted = await server.app.inject({
      method: 'POST',
      url: `/v1/otp?userId=${owner.id}`,
      headers: owner.headers,
      payload: {
        otp: otpCounter,
        station_name: name,
        location: [52.1, 4.3],
        admin_pw: 'secret12',
        tz: 'CET-1CEST,M3.5.0,M10.5.0/3',
      },
    });
    expect(submitted.statusCode).toBe(200);
    const res = await server.app.inject({ method: 'GET', url: `/credentials?otp=${otpCounter}` });
    expect(res.statusCode).toBe(200);
    return res.json<FirmwareCredentialsResponse>().mqtt;
  }
  const login = async (username: string, password: string, clientId?: string) => {
    const c = await connectAs(server, { username, password }, undefined, clientId);
    clients.push(c);
    return c;
  };
  const publishOutcome = (client: MqttClient, topic: string, body: string) =>
    Promise.race([
      client.publishAsync(topic, body, { qos: 1 }).then(() => 'acked' as const),
      closed(client).then(() => 'closed' as const),
    ]);
  const rotate = (who: LoggedIn, userId = who.id) =>
    server.app.inject({
      method: 'POST',
      url: `/v1/mqttcred/rotate?userId=${userId}`,
      headers: who.headers,
    });

  it('gives a station created by code a password that reaches that station’s topics only', async () => {
    const owner = await loggedInUser(server);
    const creds = await createByCode(owner, 'Bound_GS');
    expect(creds.user).toBe(owner.id);
    expect(creds.pass).not.toBe(owner.password);

    const station = await login(creds.user, creds.pass);
    expect(
      await station.subscribeAsync(stationSubscriptions(owner.id, 'Bound_GS'), { qos: 1 }),
    ).toHaveLength(2);
    expect(await subscribeCodes(station, `tinygs/${owner.id}/Other_GS/cmnd/#`)).toEqual([128]);
    expect(
      await publishOutcome(
        station,
        stationTopic(owner.id, 'Bound_GS', 'tele', 'welcome'),
        JSON.stringify(welcomePayload()),
      ),
    ).toBe('acked');

    // Speaking for another station of the same owner is refused and creates nothing.
    const other = await login(creds.user, creds.pass);
    expect(
      await publishOutcome(
        other,
        stationTopic(owner.id, 'Other_GS', 'tele', 'welcome'),
        JSON.stringify(welcomePayload()),
      ),
    ).toBe('closed');
    await server.ctx.services.network?.flush();
    const ids = await db()
      .selectFrom('stations')
      .select('id')
      .where('userId', '=', owner.id)
      .execute();
    expect(ids).toEqual([{ id: `Bound_GS@${owner.id}` }]);

    // The account-wide password still serves all of the owner's stations.
    clients.push(await connectStation(server, owner, 'Other_GS'));
    await waitFor(async () => {
      await server.ctx.services.network?.flush();
      return (
        (await db().selectFrom('stations').select('id').where('userId', '=', owner.id).execute())
          .length === 2
      );
    });
  });

  it('forgets credentials of stations that never came or were deleted, keeping live ones', async () => {
    const owner = await loggedInUser(server);
    const dayAgo = Date.now() - UNUSED_CREDENTIAL_KEEP_MS - 60_000;
    await buildStation(db(), { userId: owner.id, name: 'Alive_GS' });
    for (const name of ['Alive_GS', 'Gone_GS'])
      await db()
        .insertInto('stationCredentials')
        .values({
          id: `${name}-${owner.id}`,
          userId: owner.id,
          stationName: name,
          passwordEnc: encryptSecret(`pw-${name}`, TEST_SERVER_SECRET),
          createdAt: dayAgo,
        })
        .execute();
    await login(owner.id, 'pw-Gone_GS');

    await createByCode(owner, 'Next_GS');
    const names = await db()
      .selectFrom('stationCredentials')
      .select('stationName')
      .where('userId', '=', owner.id)
      .orderBy('stationName')
      .execute();
    expect(names.map((n) => n.stationName)).toEqual(['Alive_GS', 'Next_GS']);
    await expect(
      connectAs(server, { username: owner.id, password: 'pw-Gone_GS' }),
    ).rejects.toMatchObject({ code: 4 });
    await login(owner.id, 'pw-Alive_GS');
  });

  it('rotates the account password: the old one is refused and its connections closed at once', async () => {
    const owner = await loggedInUser(server);
    const creds = await createByCode(owner, 'Kept_GS');
    const bound = await login(creds.user, creds.pass);
    const legacy = await login(owner.id, owner.password);

    const res = await rotate(owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fresh = res.json<{ user: string; pass: string }>();
    expect(fresh.user).toBe(owner.id);
    expect(fresh.pass).not.toBe(owner.password);

    await closed(legacy);
    await expect(
      connectAs(server, { username: owner.id, password: owner.password }),
    ).rejects.toMatchObject({ code: 4 });
    await login(owner.id, fresh.pass);
    // The station with its own credential is untouched.
    expect(await subscribeCodes(bound, stationSubscriptions(owner.id, 'Kept_GS')[1] ?? '')).toEqual(
      [1],
    );
    expect(bound.connected).toBe(true);
    const shown = await server.app.inject({
      method: 'GET',
      url: `/v1/mqttcred?userId=${owner.id}`,
      headers: owner.headers,
    });
    expect(shown.json()).toEqual(fresh);
  });

  it('lets only the owner rotate, and only a few times in a row', async () => {
    const owner = await loggedInUser(server);
    const stranger = await loggedInUser(server);
    expect((await rotate(stranger, owner.id)).statusCode).toBe(403);
    expect(
      (await server.app.inject({ method: 'POST', url: `/v1/mqttcred/rotate?userId=${owner.id}` }))
        .statusCode,
    ).toBe(401);
    // Nothing changed: the owner's password still logs in.
    await login(owner.id, owner.password);

    for (let i = 0; i < ROTATIONS.capacity; i += 1)
      expect((await rotate(owner)).statusCode).toBe(200);
    expect((await rotate(owner)).statusCode).toBe(429);
  });
});
