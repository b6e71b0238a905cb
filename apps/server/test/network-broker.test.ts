// The broker keeps nothing a client leaves behind: retained flags are cleared (a retained message
// would stay in memory for good and no client may read station topics anyway), sessions end with
// their connection, and one connection holds a bounded number of subscriptions. Tried on the
// broker itself, with a one-user credential lookup in place of storage.
import type { Readable } from 'node:stream';
import mqtt, { type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../src/network/broker';
import { NetworkMetrics } from '../src/network/metrics';
import { closed, waitFor } from './network-helpers';

const USER = '4242';
const PASSWORD = 'correct horse battery staple';

describe('broker memory per client', () => {
  let broker: RunningBroker;
  const metrics = new NetworkMetrics();
  const received: { topic: string; payload: string }[] = [];
  const clients: MqttClient[] = [];

  const connect = async (options: mqtt.IClientOptions = {}) => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      username: USER,
      password: PASSWORD,
      protocolVersion: 4,
      reconnectPeriod: 0,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const retained = async () => {
    const persistence = (
      broker.aedes as unknown as { persistence: { createRetainedStream(p: string): Readable } }
    ).persistence;
    return persistence.createRetainedStream('#').toArray();
  };

  beforeAll(async () => {
    broker = await startBroker({
      port: 0,
      host: '127.0.0.1',
      tls: null,
      maxPacketBytes: 1000,
      limits: { perUser: 10, perAddress: 10, total: 10, subscriptionsPerConnection: 3 },
      metrics,
      log: pino({ level: 'silent' }),
      authenticate: async (username, password) =>
        username === USER && password === PASSWORD ? { userId: USER, station: null } : null,
      onMessage: (topic, payload) => received.push({ topic, payload: payload.toString() }),
      onClientGone: () => undefined,
      onOversize: () => undefined,
    });
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await broker?.close();
  });

  it('delivers a retained publish and its retained last will, and stores neither', async () => {
    const client = await connect({
      will: {
        topic: `tinygs/${USER}/Gs/tele/status`,
        payload: Buffer.from('0'),
        qos: 2,
        retain: true,
      },
    });
    await client.publishAsync(`tinygs/${USER}/Gs/tele/ping`, '{}', { qos: 1, retain: true });
    client.stream.destroy();
    await waitFor(() => received.some((m) => m.topic.endsWith('/tele/status')));
    expect(received.map((m) => m.topic)).toEqual([
      `tinygs/${USER}/Gs/tele/ping`,
      `tinygs/${USER}/Gs/tele/status`,
    ]);
    expect(metrics.refused['retain-flag-cleared']).toBe(2);
    expect(await retained()).toEqual([]);
  });

  it('keeps no session after its connection, whatever the client asks', async () => {
    const first = await connect({ clientId: 'A1B2C3D4E5F6', clean: false });
    await first.subscribeAsync(`tinygs/${USER}/Gs/cmnd/#`, { qos: 1 });
    first.end(true);
    await closed(first);
    const again = await connect({ clientId: 'A1B2C3D4E5F6', clean: false });
    // connectAsync has resolved: the CONNACK it kept says whether a session was resumed.
    const { connackPacket } = again as unknown as { connackPacket?: { sessionPresent: boolean } };
    const sessionPresent = connackPacket?.sessionPresent ?? true;
    expect(sessionPresent).toBe(false);
  });

  it('refuses a client id longer than 64 characters before it is stored anywhere', async () => {
    const outcome = (clientId: string) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, {
        username: USER,
        password: PASSWORD,
        protocolVersion: 4,
        reconnectPeriod: 0,
        clientId,
      });
      clients.push(client);
      return new Promise<string>((resolve) => {
        client.once('connect', () => resolve('connected'));
        client.once('close', () => resolve('closed'));
      });
    };
    expect(await outcome('x'.repeat(64))).toBe('connected');
    expect(await outcome('y'.repeat(65))).toBe('closed');
    expect(metrics.refused['client-id-too-long']).toBe(1);
  });

  it('refuses subscriptions past the per-connection cap; a held one may be renewed', async () => {
    const client = await connect();
    const codes = async (filter: string) =>
      client.subscribeAsync(filter, { qos: 1 }).then(
        (g) => g.map((x) => x.qos),
        (err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? [],
      );
    expect(await codes('tinygs/global/#')).toEqual([1]);
    expect(await codes(`tinygs/${USER}/A/cmnd/#`)).toEqual([1]);
    expect(await codes(`tinygs/${USER}/B/cmnd/#`)).toEqual([1]);
    expect(await codes(`tinygs/${USER}/C/cmnd/#`)).toEqual([128]);
    expect(await codes(`tinygs/${USER}/A/cmnd/#`)).toEqual([1]);
    await client.unsubscribeAsync(`tinygs/${USER}/A/cmnd/#`);
    expect(await codes(`tinygs/${USER}/C/cmnd/#`)).toEqual([1]);
    expect(metrics.refused['subscriptions-per-connection']).toBe(1);
  });
});
