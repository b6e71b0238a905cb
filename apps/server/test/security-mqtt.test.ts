// One user's MQTT credentials reach only that user's stations. The broker closes a connection on
// its first refused publish, so every forbidden action below is tried on a fresh attacker
// connection of its own and checked on its own: the broker refused it (the connection closed, no
// PUBACK) and the victim saw nothing of it (nothing delivered, stored or changed).
import { stationTopic } from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  closed,
  connectAs,
  connectStation,
  rxPayload,
  subscribeCodes,
  waitFor,
  welcomePayload,
} from './network-helpers';

const VICTIM_GS = 'Victim_GS';

/** Publishes at QoS 1: 'acked' when the broker took it, 'closed' when it refused it. */
async function publishOutcome(
  client: MqttClient,
  topic: string,
  body: string,
): Promise<'acked' | 'closed'> {
  return Promise.race([
    client.publishAsync(topic, body, { qos: 1 }).then(() => 'acked' as const),
    closed(client).then(() => 'closed' as const),
  ]);
}

describe.each(DIALECTS)('MQTT isolation between users on %s', (dialect) => {
  let server: TestServer;
  let victim: BuiltUser;
  let attacker: BuiltUser;
  let victimClient: MqttClient;
  const delivered: string[] = [];
  const victimId = () => `${VICTIM_GS}@${victim.id}`;
  const db = () => server.ctx.database.db;
  const network = () => {
    const n = server.ctx.services.network;
    if (!n) throw new Error('network part not running');
    return n;
  };
  const victimRow = () =>
    db()
      .selectFrom('stations')
      .select(['status', 'lat', 'lng'])
      .where('id', '=', victimId())
      .executeTakeFirstOrThrow();

  /** Everything the victim received since `from`, once a command of the server's own arrived after it. */
  async function deliveredSince(from: number): Promise<string[]> {
    const commands = server.ctx.services.commands;
    if (!commands) throw new Error('command service not running');
    await commands.log(victimId(), 'control');
    const logTopic = stationTopic(victim.id, VICTIM_GS, 'cmnd', 'log');
    await waitFor(() => delivered.slice(from).includes(logTopic));
    return delivered.slice(from);
  }

  /** One forbidden publish on a fresh attacker connection. */
  async function attack(topic: string, body: string): Promise<'acked' | 'closed'> {
    const client = await connectAs(server, { username: attacker.id, password: attacker.password });
    try {
      return await publishOutcome(client, topic, body);
    } finally {
      client.end(true);
    }
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    victim = await buildUser(db());
    attacker = await buildUser(db());
    victimClient = await connectStation(server, victim, VICTIM_GS);
    victimClient.on('message', (topic) => delivered.push(topic));
    await waitFor(async () => (await victimRow().catch(() => null))?.status === 1);
  });
  afterAll(async () => {
    victimClient?.end(true);
    await server?.stop();
  });

  it('refuses subscriptions to another user’s commands and to catch-all filters', async () => {
    const client = await connectAs(server, { username: attacker.id, password: attacker.password });
    for (const filter of [
      `tinygs/${victim.id}/${VICTIM_GS}/cmnd/#`,
      `tinygs/${victim.id}/+/cmnd/#`,
      `tinygs/+/${VICTIM_GS}/cmnd/#`,
      `tinygs/${victim.id}/#`,
      'tinygs/#',
      '#',
    ]) {
      expect(await subscribeCodes(client, filter), filter).toEqual([128]);
    }
    // The attacker's own commands are still allowed: the refusals are about whose topics these are.
    expect(await subscribeCodes(client, `tinygs/${attacker.id}/Own_GS/cmnd/#`)).toEqual([1]);
    client.end(true);
  });

  it.each(['reset', 'tx', 'weblogin'])(
    'refuses a forged %s command to another user’s station and never delivers it',
    async (command) => {
      const from = delivered.length;
      const outcome = await attack(stationTopic(victim.id, VICTIM_GS, 'cmnd', command), 'AQI=');
      expect(outcome).toBe('closed');
      expect(await deliveredSince(from)).toEqual([
        stationTopic(victim.id, VICTIM_GS, 'cmnd', 'log'),
      ]);
    },
  );

  it('refuses a network-wide update command from a user and never delivers it', async () => {
    const from = delivered.length;
    expect(await attack('tinygs/global/cmnd/update', '{}')).toBe('closed');
    expect(await deliveredSince(from)).toEqual([stationTopic(victim.id, VICTIM_GS, 'cmnd', 'log')]);
  });

  it('refuses a reception published as another user’s station and stores nothing', async () => {
    const refusedBefore = network().metrics.refused['publish-not-allowed'];
    const outcome = await attack(
      stationTopic(victim.id, VICTIM_GS, 'tele', 'rx'),
      JSON.stringify(rxPayload()),
    );
    expect(outcome).toBe('closed');
    expect(network().metrics.refused['publish-not-allowed']).toBe(refusedBefore + 1);
    await network().flush();
    const receptions = await db()
      .selectFrom('receptions')
      .select('packetId')
      .where('stationId', '=', victimId())
      .execute();
    expect(receptions).toEqual([]);
  });

  it('refuses another user’s station on a connection its own topics were allowed on', async () => {
    // The broker remembers the topic a connection was last allowed: it must not let others by.
    const refusedBefore = network().metrics.refused['publish-not-allowed'];
    const client = await connectAs(server, { username: attacker.id, password: attacker.password });
    try {
      const own = stationTopic(attacker.id, 'Own_GS', 'tele', 'rx');
      expect(await publishOutcome(client, own, JSON.stringify(rxPayload()))).toBe('acked');
      expect(await publishOutcome(client, own, JSON.stringify(rxPayload()))).toBe('acked');
      const outcome = await publishOutcome(
        client,
        stationTopic(victim.id, VICTIM_GS, 'tele', 'rx'),
        JSON.stringify(rxPayload()),
      );
      expect(outcome).toBe('closed');
    } finally {
      client.end(true);
    }
    expect(network().metrics.refused['publish-not-allowed']).toBe(refusedBefore + 1);
  });

  it('refuses a welcome published as another user’s station and leaves it where it is', async () => {
    const before = await victimRow();
    const outcome = await attack(
      stationTopic(victim.id, VICTIM_GS, 'tele', 'welcome'),
      JSON.stringify(welcomePayload({ station_location: [-33.9, 151.2] })),
    );
    expect(outcome).toBe('closed');
    await network().flush();
    expect(await victimRow()).toEqual(before);
  });

  it('refuses a last will on another user’s station: it stays online', async () => {
    const refusedBefore = network().metrics.refused['publish-not-allowed'];
    const client = await connectAs(
      server,
      { username: attacker.id, password: attacker.password },
      { userId: victim.id, station: VICTIM_GS },
    );
    // Dropped without DISCONNECT: the broker publishes the will, as for a station losing power.
    client.stream.destroy();
    await waitFor(() => network().metrics.refused['publish-not-allowed'] === refusedBefore + 1);
    await network().flush();
    expect((await victimRow()).status).toBe(1);
    expect(victimClient.connected).toBe(true);
  });

  it('refuses a connection with another user’s id and a wrong password', async () => {
    await expect(
      connectAs(server, { username: victim.id, password: attacker.password }),
    ).rejects.toThrow();
  });
});
