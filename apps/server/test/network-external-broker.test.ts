// The network on an external Mosquitto 2 (MQTT_BROKER_URL): a real broker started from the
// configuration the CLI writes, station accounts managed in its dynamic-security plugin, ingest
// through a shared subscription, and two instances splitting the frames of one share group.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stationTopic } from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateMqttPassword } from '../src/accounts/mqtt-password';
import { createUser, mqttCredentialsOf } from '../src/accounts/users';
import type { Config } from '../src/config';
import { reconcileBrokerAccounts } from '../src/network/broker-accounts-sync';
import { DynamicSecurity } from '../src/network/dynsec';
import { createNetworkPart } from '../src/network/part';
import { findUserById } from '../src/repositories/users';
import { createServer, type Server } from '../src/server';
import { CLI_TEST_TIMEOUT_MS, cliEnvironment, runCli } from './cli-process';
import type { BuiltUser } from './factories';
import { DIALECTS, testEnv, type TestEnv, type TestServer } from './harness';
import { MOSQUITTO, startMosquitto } from './cluster-helpers';
import {
  closed,
  connectAs,
  connectStation,
  publishTele,
  rxPayload,
  subscribeCodes,
  waitFor,
} from './network-helpers';

const available = existsSync(MOSQUITTO);
if (!available) console.warn(`${MOSQUITTO} is missing: the external-broker suite is skipped`);

/** The admin CLI as an operator runs it: its own process, one JSON object on stdout. */
async function cli(config: Config, brokerUrl: string, ...args: string[]): Promise<unknown> {
  const result = await runCli(
    [...args, '--json'],
    cliEnvironment(config, { MQTT_BROKER_URL: brokerUrl }),
  );
  if (result.code !== 0) throw new Error(result.stderr || `exit code ${result.code}`);
  return JSON.parse(result.stdout);
}

function instanceConfig(base: Config, instance: string): Config {
  const external = base.mqtt.external;
  if (!external) throw new Error('MQTT_BROKER_URL not configured');
  return {
    ...base,
    instanceId: instance,
    mqtt: { ...base.mqtt, external: { ...external, clientId: `tinygs-${instance}` } },
  };
}

async function startInstance(
  env: TestEnv,
  instance: string,
  storedStateRefreshMs = 100,
): Promise<TestServer> {
  const server: Server = await createServer(instanceConfig(env.config, instance), {
    log: pino({ level: 'silent' }),
    parts: [
      createNetworkPart({
        flushIntervalMs: 20,
        offlineSweepMs: 100,
        offlineAfterMs: 60_000,
        storedStateRefreshMs,
      }),
    ],
  });
  return { ...server, url: '', stop: () => server.close() };
}

describe.skipIf(!available).each(DIALECTS)('external Mosquitto broker on %s', (dialect) => {
  let dir: string;
  let mosquitto: { url: string; process: ChildProcess };
  let env: TestEnv;
  let server: TestServer;
  const db = () => server.ctx.database.db;
  const station = (id: string) =>
    db().selectFrom('stations').selectAll().where('id', '=', id).executeTakeFirst();
  const packetsOf = (stationId: string) =>
    db()
      .selectFrom('receptions')
      .innerJoin('packets', 'packets.id', 'receptions.packetId')
      .select(['packets.id', 'packets.stationNumber'])
      .where('receptions.stationId', '=', stationId)
      .execute();

  async function newUser(): Promise<BuiltUser> {
    const id = await createUser(server.ctx, {});
    const row = await findUserById(db(), id);
    if (!row) throw new Error('user not stored');
    return { id, password: mqttCredentialsOf(server.ctx, row).pass };
  }

  async function admin(): Promise<DynamicSecurity> {
    const u = new URL(mosquitto.url);
    return DynamicSecurity.connect(
      {
        url: `mqtt://${u.host}`,
        username: 'admin',
        password: decodeURIComponent(u.password),
      },
      pino({ level: 'silent' }),
    );
  }

  async function loginRefused(user: BuiltUser, password: string): Promise<boolean> {
    try {
      const c = await connectAs(server, { username: user.id, password });
      await c.endAsync();
      return false;
    } catch (err) {
      return /not authori[sz]ed|bad user/i.test((err as Error).message);
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tinygs-mosquitto-'));
    mosquitto = await startMosquitto(dir);
    env = await testEnv(dialect, { MQTT_BROKER_URL: mosquitto.url });
    server = await startInstance(env, 'a');
  });
  afterAll(async () => {
    await server?.stop();
    await env?.cleanup();
    mosquitto?.process.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stores a station’s reception sent through Mosquitto and shows the station online', async () => {
    const user = await newUser();
    const client = await connectStation(server, user, 'Ext_GS');
    const id = `Ext_GS@${user.id}`;
    await waitFor(async () => (await station(id))?.status === 1);
    await publishTele(client, user, 'Ext_GS', 'rx', rxPayload());
    const rows = await waitFor(async () => {
      const r = await packetsOf(id);
      return r.length > 0 && r;
    });
    expect(rows).toHaveLength(1);
    expect(server.ctx.services.commands?.isOnline(id)).toBe(true);
    await client.endAsync();
  });

  it(
    'gives an account created with the CLI its broker login at once',
    async () => {
      const made = (await cli(
        env.config,
        mosquitto.url,
        'user',
        'add',
        '--email',
        'cli-ext@example.org',
      )) as {
        userId: string;
      };
      const creds = (await cli(
        env.config,
        mosquitto.url,
        'user',
        'mqtt',
        '--email',
        'cli-ext@example.org',
      )) as {
        user: string;
        pass: string;
      };
      expect(creds.user).toBe(made.userId);
      const client = await connectAs(server, { username: creds.user, password: creds.pass });
      expect(client.connected).toBe(true);
      await client.endAsync();
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it('delivers commands to the station, and Mosquitto refuses another user’s topics', async () => {
    const user = await newUser();
    const other = await newUser();
    const client = await connectStation(server, user, 'Acl_GS');
    const id = `Acl_GS@${user.id}`;
    await waitFor(async () => (await station(id))?.status === 1);

    const got = new Promise<string>((resolve) =>
      client.on('message', (topic) => {
        if (topic.endsWith('/cmnd/reset')) resolve(topic);
      }),
    );
    await server.ctx.services.commands?.reset(id);
    expect(await got).toBe(stationTopic(user.id, 'Acl_GS', 'cmnd', 'reset'));

    expect(await subscribeCodes(client, `tinygs/${other.id}/Other_GS/cmnd/#`)).toEqual([128]);
    expect(await subscribeCodes(client, '$share/steal/tinygs/#')).toEqual([128]);
    expect(await subscribeCodes(client, 'tinygs/#')).toEqual([128]);
    // A welcome published under the other user's id is dropped by the broker, not stored.
    await client.publishAsync(
      stationTopic(other.id, 'Other_GS', 'tele', 'welcome'),
      JSON.stringify({ station_location: [1, 2] }),
      { qos: 1 },
    );
    await publishTele(client, user, 'Acl_GS', 'ping', { RSSI: -61, radio: 0 });
    await waitFor(async () => (await station(id))?.wifiRssi === -61);
    expect(await station(`Other_GS@${other.id}`)).toBeUndefined();
    await client.endAsync();
  });

  it('refuses the old password after a rotation and closes the connection that used it', async () => {
    const user = await newUser();
    const client = await connectStation(server, user, 'Rot_GS');
    const { pass } = await rotateMqttPassword(server.ctx, user.id);
    await waitFor(() => !client.connected, 5_000);
    expect(await loginRefused(user, user.password)).toBe(true);
    const fresh = await connectAs(server, { username: user.id, password: pass });
    expect(fresh.connected).toBe(true);
    await fresh.endAsync();
    client.end(true);
  });

  it('removes the broker client of an account that no longer exists', async () => {
    const user = await newUser();
    const probe = await connectAs(server, { username: user.id, password: user.password });
    await probe.endAsync();
    await db().deleteFrom('users').where('id', '=', user.id).execute();
    const accounts = server.ctx.services.network?.brokerAccounts;
    if (!accounts) throw new Error('no broker accounts');
    const outcome = await reconcileBrokerAccounts(server.ctx, accounts);
    expect(outcome.removed).toBe(1);
    expect(await loginRefused(user, user.password)).toBe(true);
    const ds = await admin();
    const names = (await ds.listClients()).map((c) => c.username);
    const roles = (await ds.listRoles()).map((r) => r.rolename);
    await ds.close();
    expect(names).not.toContain(user.id);
    expect(roles).not.toContain(`tinygs-user-${user.id}`);
  });

  it('puts back at start-up an account the broker lost', async () => {
    const user = await newUser();
    const ds = await admin();
    await ds.runAll([
      { command: 'deleteClient', username: user.id },
      { command: 'deleteRole', rolename: `tinygs-user-${user.id}` },
    ]);
    await ds.close();
    expect(await loginRefused(user, user.password)).toBe(true);
    await server.stop();
    server = await startInstance(env, 'a');
    const client = await connectStation(server, user, 'Back_GS');
    await waitFor(async () => (await station(`Back_GS@${user.id}`))?.status === 1);
    // The role is exactly the account's again: another user's commands stay out of reach.
    expect(await subscribeCodes(client, 'tinygs/1/Any/cmnd/#')).toEqual([128]);
    await client.endAsync();
  });

  it('marks a station offline when its last will arrives', async () => {
    const user = await newUser();
    const client: MqttClient = await connectStation(server, user, 'Will_GS');
    const id = `Will_GS@${user.id}`;
    await waitFor(async () => (await station(id))?.status === 1);
    // Gone without a DISCONNECT: Mosquitto publishes the firmware's last will.
    client.stream.destroy();
    await closed(client);
    await waitFor(async () => (await station(id))?.status === 0);
    // This instance's view follows storage within its refresh interval.
    await waitFor(() => server.ctx.services.commands?.isOnline(id) === false);
    client.end(true);
  });

  it('marks a station offline from a last will that reaches an instance that never saw it', async () => {
    const instances = [server, await startInstance(env, 'c')];
    const stopped = new Set<TestServer>();
    try {
      const user = await newUser();
      const received = () =>
        instances.map((s) => s.ctx.services.network?.metrics.messagesReceived ?? 0);
      const before = received();
      const client = await connectStation(server, user, 'Handover_GS');
      const id = `Handover_GS@${user.id}`;
      await waitFor(async () => (await station(id))?.status === 1);
      // The instance that took the welcome stops (leaving the share group); the other one gets
      // the last will.
      const taker = (received()[1] ?? 0) > (before[1] ?? 0) ? 1 : 0;
      const gone = instances[taker];
      const survivor = instances[1 - taker];
      if (!gone || !survivor) throw new Error('two instances expected');
      await gone.stop();
      stopped.add(gone);
      server = survivor;
      client.stream.destroy();
      await closed(client);
      await waitFor(async () => (await station(id))?.status === 0);
      client.end(true);
    } finally {
      // `server` stays a running instance for the tests that follow.
      for (const s of instances) if (s !== server && !stopped.has(s)) await s.stop();
    }
  });

  it('stores the receptions of a new station that reach an instance which has not heard of it', async () => {
    // This instance reads storage's station list only every ten minutes, and without REDIS_URL no
    // event tells it of stations the other instance creates: when such a station's frames reach
    // it, what it knows is what storage says.
    const late = await startInstance(env, 'd', 600_000);
    try {
      const user = await newUser();
      const received = () =>
        [server, late].map((s) => s.ctx.services.network?.metrics.messagesReceived ?? 0);
      // The share group alternates: a station whose welcome went to the other instance.
      let chosen: { client: MqttClient; id: string; name: string } | null = null;
      for (let attempt = 0; attempt < 4 && !chosen; attempt += 1) {
        const name = `Newcomer${attempt}_GS`;
        const id = `${name}@${user.id}`;
        const before = received()[1];
        const client = await connectStation(server, user, name);
        await waitFor(async () => (await station(id))?.status === 1);
        if (received()[1] === before) chosen = { client, id, name };
        else await client.endAsync();
      }
      if (!chosen) throw new Error('every welcome went to the late instance');
      const unknownBefore = late.ctx.services.network?.metrics.dropped['unknown-station'] ?? 0;
      const before = received();
      const frames = 10;
      for (let i = 0; i < frames; i += 1)
        await publishTele(
          chosen.client,
          user,
          chosen.name,
          'rx',
          rxPayload({ data: randomBytes(24).toString('base64') }),
        );
      const { id } = chosen;
      await waitFor(async () => (await packetsOf(id)).length >= frames, 10_000);
      const handled = received().map((n, i) => n - (before[i] ?? 0));
      expect(handled[1]).toBeGreaterThan(0);
      expect(await packetsOf(id)).toHaveLength(frames);
      expect(late.ctx.services.network?.metrics.dropped['unknown-station']).toBe(unknownBefore);
      await chosen.client.endAsync();
    } finally {
      await late.stop();
    }
  });

  it('splits one share group’s frames between two instances and stores each once', async () => {
    const second = await startInstance(env, 'b');
    try {
      const user = await newUser();
      const client = await connectStation(server, user, 'Share_GS');
      const id = `Share_GS@${user.id}`;
      await waitFor(async () => (await station(id))?.status === 1);
      // The second instance learns of the station from storage.
      await waitFor(() => second.ctx.services.commands?.isOnline(id));
      const before = [server, second].map(
        (s) => s.ctx.services.network?.metrics.messagesReceived ?? 0,
      );
      const frames = 20;
      for (let i = 0; i < frames; i += 1)
        await publishTele(
          client,
          user,
          'Share_GS',
          'rx',
          rxPayload({ data: randomBytes(24).toString('base64') }),
        );
      const rows = await waitFor(async () => {
        const r = await packetsOf(id);
        return r.length >= frames && r;
      }, 10_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(await packetsOf(id)).toHaveLength(frames);
      expect(new Set(rows.map((r) => r.id)).size).toBe(frames);
      const after = [server, second].map(
        (s) => s.ctx.services.network?.metrics.messagesReceived ?? 0,
      );
      const handled = after.map((n, i) => n - (before[i] ?? 0));
      // Each instance took part, and together they handled each frame once.
      expect(handled[0]).toBeGreaterThan(0);
      expect(handled[1]).toBeGreaterThan(0);
      expect((handled[0] ?? 0) + (handled[1] ?? 0)).toBe(frames);
      await client.endAsync();
    } finally {
      await second.stop();
    }
  });
});
