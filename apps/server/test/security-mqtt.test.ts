// One user's MQTT credentials reach only that user's stations: publishing into another user's
// topics delivers nothing and stores nothing, and subscribing to another user's commands is refused.
import { stationTopic } from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parts } from '../src/parts';
import { buildUser, type BuiltUser } from './factories';
import { startTestServer, type TestServer } from './harness';
import { connectAs, connectStation, rxPayload, subscribeCodes, waitFor } from './network-helpers';

const VICTIM_GS = 'Victim_GS';

/** Publishes, giving up after a while: the broker may drop a connection that publishes where it may not. */
async function tryPublish(client: MqttClient, topic: string, body: string): Promise<void> {
  if (!client.connected) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.publishAsync(topic, body, { qos: 1 }).catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, 1_000);
    }),
  ]);
  clearTimeout(timer);
}

describe('MQTT isolation between users', () => {
  let server: TestServer;
  let victim: BuiltUser;
  let attacker: BuiltUser;
  let victimClient: MqttClient;
  const delivered: string[] = [];
  const db = () => server.ctx.database.db;

  beforeAll(async () => {
    const network = parts.find((p) => p.name === 'network');
    if (!network) throw new Error('network part missing from src/parts.ts');
    server = await startTestServer('sqlite', { parts: [network] });
    victim = await buildUser(db());
    attacker = await buildUser(db());
    victimClient = await connectStation(server, victim, VICTIM_GS);
    victimClient.on('message', (topic) => delivered.push(topic));
    await waitFor(async () => {
      const row = await db()
        .selectFrom('stations')
        .select('status')
        .where('id', '=', `${VICTIM_GS}@${victim.id}`)
        .executeTakeFirst();
      return row?.status === 1;
    });
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
      const codes = await subscribeCodes(client, filter);
      expect(codes, filter).toEqual([128]);
    }
    // The attacker's own commands are still allowed: the refusals are about whose topics these are.
    expect(await subscribeCodes(client, `tinygs/${attacker.id}/Own_GS/cmnd/#`)).toEqual([1]);
    client.end(true);
  });

  it('delivers nothing and stores nothing published into another user’s topics', async () => {
    const client = await connectAs(server, { username: attacker.id, password: attacker.password });
    const before = delivered.length;
    await tryPublish(client, stationTopic(victim.id, VICTIM_GS, 'cmnd', 'reset'), '1');
    await tryPublish(client, stationTopic(victim.id, VICTIM_GS, 'cmnd', 'tx'), 'AQI=');
    await tryPublish(client, 'tinygs/global/cmnd/update', '{}');
    await tryPublish(
      client,
      stationTopic(victim.id, VICTIM_GS, 'tele', 'rx'),
      JSON.stringify(rxPayload()),
    );
    await tryPublish(client, stationTopic(victim.id, VICTIM_GS, 'tele', 'status'), '0');
    client.end(true);

    // The server's own command must arrive: proof the victim's subscription works while we look.
    const commands = server.ctx.services.commands;
    if (!commands) throw new Error('command service not running');
    await commands.log(`${VICTIM_GS}@${victim.id}`, 'control');
    const logTopic = stationTopic(victim.id, VICTIM_GS, 'cmnd', 'log');
    await waitFor(() => delivered.slice(before).includes(logTopic));
    await server.ctx.services.network?.flush();

    expect(delivered.slice(before)).toEqual([logTopic]);
    const receptions = await db()
      .selectFrom('receptions')
      .select('packetId')
      .where('stationId', '=', `${VICTIM_GS}@${victim.id}`)
      .execute();
    expect(receptions).toEqual([]);
    const victimRow = await db()
      .selectFrom('stations')
      .select('status')
      .where('id', '=', `${VICTIM_GS}@${victim.id}`)
      .executeTakeFirstOrThrow();
    // The forged last-will "0" must not take the victim's station offline.
    expect(victimRow.status).toBe(1);
    expect(victimClient.connected).toBe(true);
  });

  it('refuses a connection with another user’s id and a wrong password', async () => {
    await expect(
      connectAs(server, { username: victim.id, password: attacker.password }),
    ).rejects.toThrow();
  });
});
