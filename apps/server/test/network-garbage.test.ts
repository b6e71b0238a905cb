// Bad input from stations: dropped and counted, never stored half-way; a flooding connection is
// closed; the broker keeps serving everyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { closed, connectStation, publishTele, rxPayload, waitFor } from './network-helpers';

describe.each(DIALECTS)('bad station input on %s', (dialect) => {
  let server: TestServer;
  const db = () => server.ctx.database.db;
  const stored = async () => {
    await server.ctx.services.network?.flush();
    const packets = await db().selectFrom('packets').select('id').execute();
    const receptions = await db().selectFrom('receptions').select('packetId').execute();
    return { packets: packets.length, receptions: receptions.length };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('drops and counts garbage payloads without storing anything', async () => {
    const user = await buildUser(db());
    const client = await connectStation(server, user, 'Noisy_GS');
    await waitFor(async () => (await readCounters(db())).stations === 1);
    const before = await stored();
    const garbage: unknown[] = [
      'not json at all',
      '{"truncated":',
      Buffer.from([0xff, 0x00, 0xfe]),
      [],
      { ...rxPayload(), rssi: 'loud' },
      { ...rxPayload(), data: 'not base64!' },
      { ...rxPayload(), mode: 'Morse' },
      { ...rxPayload(), station_location: [1] },
      { ...rxPayload(), satellite: 'No-Such-Sat', NORAD: 1234567 },
    ];
    for (const payload of garbage) await publishTele(client, user, 'Noisy_GS', 'rx', payload);
    await publishTele(client, user, 'Noisy_GS', 'welcome', { station_location: 'here', tx: 'yes' });
    await publishTele(client, user, 'Noisy_GS', 'ping', 'NaN');
    await waitFor(
      () => (server.ctx.services.network?.metrics.messagesReceived ?? 0) >= garbage.length + 2,
    );

    expect(await stored()).toEqual(before);
    const metrics = server.ctx.services.network?.metrics.snapshot();
    expect(metrics?.dropped['not-json']).toBeGreaterThanOrEqual(3);
    expect(metrics?.dropped['invalid-payload']).toBeGreaterThanOrEqual(6);
    expect(metrics?.dropped['unknown-satellite']).toBe(1);
    expect((await readCounters(db())).droppedMessages).toBeGreaterThanOrEqual(garbage.length + 2);
    // The station itself is untouched and still served.
    const row = await db()
      .selectFrom('stations')
      .selectAll()
      .where('id', '=', `Noisy_GS@${user.id}`)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 1, lat: 40.4168, telemetryPackets: 0 });
    expect(client.connected).toBe(true);

    await publishTele(client, user, 'Noisy_GS', 'rx', rxPayload());
    await waitFor(async () => (await stored()).receptions === before.receptions + 1);
    await client.endAsync();
  });

  it('closes a connection that sends a packet above 1000 bytes, and serves the next one', async () => {
    const user = await buildUser(db());
    const client = await connectStation(server, user, 'Big_GS');
    await waitFor(
      async () =>
        (
          await db()
            .selectFrom('stations')
            .select('status')
            .where('id', '=', `Big_GS@${user.id}`)
            .executeTakeFirst()
        )?.status === 1,
    );
    const before = await stored();
    const gone = closed(client);
    client.publish(
      `tinygs/${user.id}/Big_GS/tele/rx`,
      JSON.stringify(rxPayload({ padding: 'x'.repeat(1200) })),
      { qos: 0 },
    );
    await gone;
    expect(await stored()).toEqual(before);
    expect(server.ctx.services.network?.metrics.dropped.oversized).toBeGreaterThanOrEqual(1);

    const again = await connectStation(server, user, 'Big_GS');
    await publishTele(
      again,
      user,
      'Big_GS',
      'rx',
      rxPayload({ data: Buffer.from('another frame').toString('base64') }),
    );
    await waitFor(async () => (await stored()).receptions === before.receptions + 1);
    await again.endAsync();
  });

  it('disconnects a client flooding with invalid messages', async () => {
    const user = await buildUser(db());
    const client = await connectStation(server, user, 'Flood_GS');
    await waitFor(
      async () =>
        (
          await db()
            .selectFrom('stations')
            .select('status')
            .where('id', '=', `Flood_GS@${user.id}`)
            .executeTakeFirst()
        )?.status === 1,
    );
    const gone = closed(client);
    for (let i = 0; i < 60 && client.connected; i += 1) {
      client.publish(`tinygs/${user.id}/Flood_GS/tele/rx`, `garbage ${i}`, { qos: 0 });
    }
    await gone;
    expect(server.ctx.services.network?.metrics.floodDisconnects).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () =>
        (
          await db()
            .selectFrom('stations')
            .select('status')
            .where('id', '=', `Flood_GS@${user.id}`)
            .executeTakeFirst()
        )?.status === 0,
    );
  });
});
