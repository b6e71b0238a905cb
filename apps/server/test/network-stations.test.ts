// Station lifecycle over the real broker: a firmware-like client says welcome and pings, its last
// will or a silence makes it offline, and credentials decide who may connect at all.
import { createServer as createNetServer } from 'node:net';
import { stationTopic } from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import { listStationListItems } from '../src/repositories/stations';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  closed,
  connectAs,
  connectStation,
  publishTele,
  subscribeCodes,
  waitFor,
} from './network-helpers';

describe.each(DIALECTS)('station lifecycle on %s', (dialect) => {
  let server: TestServer;
  const station = async (id: string) =>
    server.ctx.database.db
      .selectFrom('stations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [
        createNetworkPart({ flushIntervalMs: 20, offlineSweepMs: 100, offlineAfterMs: 1_500 }),
      ],
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates the station on welcome and shows it online in the station list', async () => {
    const user = await buildUser(server.ctx.database.db);
    const client = await connectStation(server, user, 'Welcome_GS', {
      station_location: [51.5, -0.12],
      version: 2603242,
    });
    const row = await waitFor(
      async () =>
        (await station(`Welcome_GS@${user.id}`))?.status === 1 && station(`Welcome_GS@${user.id}`),
    );
    expect(row).toMatchObject({
      name: 'Welcome_GS',
      userId: user.id,
      lat: 51.5,
      lng: -0.12,
      version: 2603242,
      tx: 1,
      localIp: '192.168.1.50',
      satellite: 'Norbi',
      modemConf: expect.stringContaining('"sat":"Norbi"'),
    });
    expect(row.lastSeen).toBeGreaterThan(Date.now() - 10_000);

    const list = await listStationListItems(server.ctx.database.db);
    expect(list.find((s) => s.name === 'Welcome_GS')).toMatchObject({
      userId: user.id,
      status: 1,
      location: [51.5, -0.12],
      satDisplayName: 'Norby',
    });
    const counters = await readCounters(server.ctx.database.db);
    expect(counters.stations).toBeGreaterThanOrEqual(1);
    expect(counters.members).toBeGreaterThanOrEqual(1);

    await publishTele(client, user, 'Welcome_GS', 'ping', {
      RSSI: -67,
      radio: 0,
      Vbat: 4.05,
      Mem: 110000,
    });
    await waitFor(async () => (await station(`Welcome_GS@${user.id}`))?.wifiRssi === -67);
    expect((await station(`Welcome_GS@${user.id}`))?.radioStatus).toBe(0);
    await client.endAsync();
  });

  it('marks the station offline when its last will arrives', async () => {
    const user = await buildUser(server.ctx.database.db);
    const client = await connectStation(server, user, 'Will_GS');
    const id = `Will_GS@${user.id}`;
    await waitFor(async () => (await station(id))?.status === 1);
    const onlineBefore = (await readCounters(server.ctx.database.db)).stations;
    // An abrupt end (no DISCONNECT packet) makes the broker publish the will.
    client.end(true);
    await waitFor(async () => (await station(id))?.status === 0);
    expect((await readCounters(server.ctx.database.db)).stations).toBe(onlineBefore - 1);
  });

  it('marks a station offline after a clean disconnect and after a silence', async () => {
    const user = await buildUser(server.ctx.database.db);
    const first = await connectStation(server, user, 'Bye_GS');
    await waitFor(async () => (await station(`Bye_GS@${user.id}`))?.status === 1);
    await first.endAsync();
    await waitFor(async () => (await station(`Bye_GS@${user.id}`))?.status === 0);

    const quiet = await connectStation(server, user, 'Quiet_GS');
    await waitFor(async () => (await station(`Quiet_GS@${user.id}`))?.status === 1);
    // No ping within offlineAfterMs (1.5 s here, 5 min in production): offline while still connected.
    await waitFor(async () => (await station(`Quiet_GS@${user.id}`))?.status === 0, 5_000);
    expect(quiet.connected).toBe(true);
    await publishTele(quiet, user, 'Quiet_GS', 'ping', { RSSI: -70, radio: 0 });
    await waitFor(async () => (await station(`Quiet_GS@${user.id}`))?.status === 1);
    await quiet.endAsync();
  });

  it('refuses wrong or missing credentials at CONNECT', async () => {
    const user = await buildUser(server.ctx.database.db);
    await expect(
      connectAs(server, { username: user.id, password: 'not-the-password' }),
    ).rejects.toThrow(/Bad username or password|Not authorized/i);
    await expect(connectAs(server, {})).rejects.toThrow(/Bad username or password|Not authorized/i);
    await expect(connectAs(server, { username: '999999999999', password: 'x' })).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );
    const ok = await connectAs(server, { username: user.id, password: user.password });
    expect(ok.connected).toBe(true);
    await ok.endAsync();
  });

  it("keeps a second user out of the first user's topics", async () => {
    const owner = await buildUser(server.ctx.database.db);
    const intruder = await buildUser(server.ctx.database.db);
    const ownerClient = await connectStation(server, owner, 'Owned_GS');
    const ownedId = `Owned_GS@${owner.id}`;
    await waitFor(async () => (await station(ownedId))?.status === 1);

    // Reading the owner's commands is refused in the SUBACK; commands never reach the intruder.
    const reader = await connectAs(server, { username: intruder.id, password: intruder.password });
    expect(await subscribeCodes(reader, stationTopic(owner.id, 'Owned_GS', 'cmnd', '#'))).toEqual([
      128,
    ]);
    expect(await subscribeCodes(reader, 'tinygs/#')).toEqual([128]);
    expect(await subscribeCodes(reader, `tinygs/${owner.id}/+/cmnd/#`)).toEqual([128]);
    expect(await subscribeCodes(reader, 'tinygs/global/#')).toEqual([1]);
    const seen: string[] = [];
    reader.on('message', (topic) => seen.push(topic));
    const received: string[] = [];
    ownerClient.on('message', (topic) => received.push(topic));
    await server.ctx.services.commands?.log(ownedId, 'hello owner');
    await waitFor(() => received.includes(stationTopic(owner.id, 'Owned_GS', 'cmnd', 'log')));
    expect(seen).toEqual([]);

    // Publishing as the owner's station is refused: the connection is closed, nothing changes.
    const writer = await connectAs(server, { username: intruder.id, password: intruder.password });
    const gone = closed(writer);
    writer.publish(
      stationTopic(owner.id, 'Owned_GS', 'tele', 'welcome'),
      JSON.stringify({ station_location: [0, 0], tx: false, version: 1 }),
      { qos: 0 },
    );
    await gone;
    await server.ctx.services.network?.flush();
    expect(await station(ownedId)).toMatchObject({ version: 2603242, status: 1 });
    expect(await station(`Owned_GS@${intruder.id}`)).toBeUndefined();
    await reader.endAsync();
    await ownerClient.endAsync();
  });
});

describe('broker start-up', () => {
  it('refuses to start when an explicitly set MQTT_PORT is taken', async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(
        startTestServer('sqlite', {
          parts: [createNetworkPart()],
          env: { MQTT_PORT: String(port) },
        }),
      ).rejects.toThrow(`MQTT_PORT ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });
});
