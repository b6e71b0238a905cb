// One registered user cannot starve the broker or take over someone else's connection: client ids
// stay with the user holding them, connections and stations per user are capped, each connection
// is held to a station's real rates, and a flooding station fills only its own share of the ingest
// queue. Everything refused is counted.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_STATION_RATES } from '../src/network/message-router';
import { createNetworkPart, type NetworkPartOptions } from '../src/network/part';
import { buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  closed,
  connectAs,
  connectStation,
  mqttPort,
  publishTele,
  rxPayload,
  waitFor,
} from './network-helpers';

const QUIET = { capacity: 1_000, perSecond: 1_000 };

/** A frame nobody else sends: each one is a packet of its own. */
const uniqueRx = () => rxPayload({ data: randomBytes(24).toString('base64') });

describe.each(DIALECTS)('broker fairness on %s', (dialect) => {
  let server: TestServer | undefined;
  const clients: MqttClient[] = [];
  const db = () => {
    if (!server) throw new Error('no server');
    return server.ctx.database.db;
  };
  const network = () => {
    const n = server?.ctx.services.network;
    if (!n) throw new Error('network part not running');
    return n;
  };
  async function start(options: NetworkPartOptions = {}, env: Record<string, string> = {}) {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20, ...options })],
      env,
    });
    return server;
  }
  const track = (c: MqttClient) => {
    clients.push(c);
    return c;
  };
  async function stationRows(user: BuiltUser) {
    await network().flush();
    return db()
      .selectFrom('stations')
      .select(['id', 'lat', 'lng'])
      .where('userId', '=', user.id)
      .execute();
  }
  async function receptionsOf(stationId: string) {
    await network().flush();
    const rows = await db()
      .selectFrom('receptions')
      .select('packetId')
      .where('stationId', '=', stationId)
      .execute();
    return rows.length;
  }

  afterEach(async () => {
    for (const c of clients.splice(0)) c.end(true);
    await server?.stop();
    server = undefined;
  });

  it('keeps a client id with the user holding it; the same user reconnecting replaces its session', async () => {
    const s = await start();
    const owner = await buildUser(db());
    const other = await buildUser(db());
    const mac = 'A1B2C3D4E5F6';
    const first = track(
      await connectAs(s, { username: owner.id, password: owner.password }, undefined, mac),
    );

    await expect(
      connectAs(s, { username: other.id, password: other.password }, undefined, mac),
    ).rejects.toMatchObject({ code: 2 });
    expect(network().metrics.refused['client-id-taken']).toBe(1);
    // Still served: a subscription round trip works on the first connection.
    await first.subscribeAsync(`tinygs/${owner.id}/Own_GS/cmnd/#`, { qos: 1 });
    expect(first.connected).toBe(true);

    const again = track(
      await connectAs(s, { username: owner.id, password: owner.password }, undefined, mac),
    );
    await closed(first);
    expect(again.connected).toBe(true);
  });

  it('caps connections per user without touching other users', async () => {
    const s = await start({}, { MQTT_MAX_CONNECTIONS_PER_USER: '2' });
    const busy = await buildUser(db());
    const other = await buildUser(db());
    const login = (u: BuiltUser) => connectAs(s, { username: u.id, password: u.password });
    const a = track(await login(busy));
    track(await login(busy));
    await expect(login(busy)).rejects.toMatchObject({ code: 3 });
    expect(network().metrics.refused['connections-per-user']).toBe(1);
    track(await login(other));
    a.end(true);
    // Its place is free again once the broker has seen the connection close.
    await waitFor(() => login(busy).then(track, () => null));
  });

  it('caps open connections overall', async () => {
    const s = await start({}, { MQTT_MAX_CONNECTIONS: '2' });
    const user = await buildUser(db());
    const login = () => connectAs(s, { username: user.id, password: user.password });
    track(await login());
    track(await login());
    // The third socket is closed as soon as it is accepted, before any MQTT is spoken.
    const third = connect(mqttPort(s), '127.0.0.1');
    third.on('error', () => undefined);
    await new Promise((resolve) => third.once('close', resolve));
    expect(network().metrics.refused['connections-total']).toBe(1);
  });

  it('creates at most the station cap from 300 welcomes under new names on one connection', async () => {
    const s = await start();
    const user = await buildUser(db());
    const client = track(await connectStation(s, user, 'Gs_0'));
    // The flood limit may close the connection part-way: stop publishing then.
    const gone = closed(client);
    for (let i = 1; i < 300 && client.connected; i += 1) {
      await Promise.race([
        publishTele(client, user, `Gs_${i}`, 'welcome', {
          station_location: [10, 10],
          tx: false,
          version: 1,
        }),
        gone,
      ]);
    }
    const rows = await stationRows(user);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(25);
    // The welcome bucket stopped them before the cap did.
    expect(network().metrics.dropped['rate-limited']).toBeGreaterThan(0);
  });

  it('refuses new stations past the cap, still welcomes existing ones, and counts deletions', async () => {
    const s = await start({ rates: { ...DEFAULT_STATION_RATES, welcome: QUIET } });
    const user = await buildUser(db());
    const client = track(await connectStation(s, user, 'Gs_0'));
    for (let i = 1; i < 300; i += 1) {
      await publishTele(client, user, `Gs_${i}`, 'welcome', {
        station_location: [10, 10],
        tx: false,
        version: 1,
      });
    }
    await waitFor(() => network().metrics.dropped['station-cap'] === 275);
    expect((await stationRows(user)).length).toBe(25);

    // An existing station moving is not a new station.
    await publishTele(client, user, 'Gs_3', 'welcome', {
      station_location: [-20, 30],
      tx: false,
      version: 1,
    });
    await waitFor(async () => (await stationRows(user)).some((r) => r.lat === -20));

    // One goes offline and its owner deletes it: its place is free for a new name.
    await publishTele(client, user, 'Gs_4', 'status', '0');
    await waitFor(async () => {
      await network().flush();
      const row = await db()
        .selectFrom('stations')
        .select('status')
        .where('id', '=', `Gs_4@${user.id}`)
        .executeTakeFirst();
      return row?.status === 0;
    });
    await db().deleteFrom('stations').where('id', '=', `Gs_4@${user.id}`).execute();
    await publishTele(client, user, 'Gs_new', 'welcome', {
      station_location: [1, 1],
      tx: false,
      version: 1,
    });
    await waitFor(async () => (await stationRows(user)).some((r) => r.id === `Gs_new@${user.id}`));
    expect((await stationRows(user)).length).toBe(25);
  });

  it('refuses station locations outside -90..90 and -180..180', async () => {
    const s = await start();
    const user = await buildUser(db());
    const client = track(await connectStation(s, user, 'Here_GS'));
    await publishTele(client, user, 'Nowhere_GS', 'welcome', {
      station_location: [91, 0],
      tx: false,
      version: 1,
    });
    await publishTele(client, user, 'Here_GS', 'rx', uniqueRx());
    await publishTele(client, user, 'Here_GS', 'rx', {
      ...uniqueRx(),
      station_location: [0, 180.5],
    });
    await waitFor(() => network().metrics.dropped['bad-location'] === 2);
    expect((await stationRows(user)).map((r) => r.id)).toEqual([`Here_GS@${user.id}`]);
    expect(await receptionsOf(`Here_GS@${user.id}`)).toBe(1);
  });

  it('drops receptions above a connection’s rate and leaves other connections alone', async () => {
    const s = await start({
      rates: { ...DEFAULT_STATION_RATES, rx: { capacity: 5, perSecond: 0.001 } },
    });
    const user = await buildUser(db());
    const fast = track(await connectStation(s, user, 'Fast_GS'));
    const calm = track(await connectStation(s, user, 'Calm_GS'));
    for (let i = 0; i < 8; i += 1) await publishTele(fast, user, 'Fast_GS', 'rx', uniqueRx());
    for (let i = 0; i < 3; i += 1) await publishTele(calm, user, 'Calm_GS', 'rx', uniqueRx());
    await waitFor(() => network().metrics.messagesReceived >= 2 + 11);
    expect(await receptionsOf(`Fast_GS@${user.id}`)).toBe(5);
    expect(await receptionsOf(`Calm_GS@${user.id}`)).toBe(3);
    expect(network().metrics.dropped['rate-limited']).toBe(3);
  });

  it('drops command answers above a connection’s rate', async () => {
    const s = await start({
      rates: { ...DEFAULT_STATION_RATES, stat: { capacity: 2, perSecond: 0.001 } },
    });
    const user = await buildUser(db());
    const client = track(await connectStation(s, user, 'Ack_GS'));
    for (let i = 0; i < 5; i += 1)
      await client.publishAsync(`tinygs/${user.id}/Ack_GS/stat/reset`, Buffer.from([0, 0]), {
        qos: 1,
      });
    await waitFor(() => network().metrics.messagesReceived >= 1 + 5);
    expect(network().metrics.dropped['rate-limited']).toBe(3);
    expect(client.connected).toBe(true);
  });

  it('stores every frame of an honest station while another one floods the ingest queue', async () => {
    const s = await start({
      // Nothing is written until flush(): the queue only fills.
      flushIntervalMs: 3_600_000,
      queue: { maxQueuedReceptions: 20, maxQueuedPerStation: 10, maxQueuedPerUser: 10 },
    });
    const flooder = await buildUser(db());
    const honest = await buildUser(db());
    const flood = track(await connectStation(s, flooder, 'Flood_GS'));
    const calm = track(await connectStation(s, honest, 'Honest_GS'));
    for (let i = 0; i < 30; i += 1) await publishTele(flood, flooder, 'Flood_GS', 'rx', uniqueRx());
    for (let i = 0; i < 5; i += 1) await publishTele(calm, honest, 'Honest_GS', 'rx', uniqueRx());
    await waitFor(() => network().metrics.messagesReceived >= 2 + 35);

    expect(await receptionsOf(`Honest_GS@${honest.id}`)).toBe(5);
    expect(await receptionsOf(`Flood_GS@${flooder.id}`)).toBe(10);
    expect(network().metrics.dropped['queue-share']).toBe(20);
    expect(network().metrics.dropped['queue-full']).toBe(0);
  });
});
