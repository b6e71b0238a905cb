// Commands to stations, as a firmware-like client receives them: the command service, and
// auto-tune retuning a station to the satellite of its band that is overhead.
import { stationTopic } from '@tinygs/contracts';
import { parseTle, subSatellitePoint } from '@tinygs/orbit';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutoTunePart } from '../src/network/auto-tune';
import { NotOnlineError } from '../src/network/commands';
import { createNetworkPart } from '../src/network/part';
import { buildStation, buildUser, leoTle, setSatelliteTle } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, waitFor } from './network-helpers';

function collect(client: MqttClient): { topic: string; payload: Buffer }[] {
  const messages: { topic: string; payload: Buffer }[] = [];
  client.on('message', (topic, payload) => messages.push({ topic, payload }));
  return messages;
}

describe.each(DIALECTS)('station commands on %s', (dialect) => {
  let server: TestServer;
  const db = () => server.ctx.database.db;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 }), createAutoTunePart({ intervalMs: 150 })],
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('delivers commands to the station and refuses stations that are not online', async () => {
    const commands = server.ctx.services.commands;
    if (!commands) throw new Error('command service missing');
    const user = await buildUser(db());
    const client = await connectStation(server, user, 'Cmd_GS');
    const messages = collect(client);
    const id = `Cmd_GS@${user.id}`;
    await waitFor(() => commands.isOnline(id));

    await commands.tx(id, Uint8Array.from([0x00, 0xff, 0x10]));
    await commands.sat(id, 'Norbi', 46494);
    await commands.begine(id, {
      mode: 'LoRa',
      freq: 436.703,
      sf: 10,
      bw: 250,
      cr: 5,
      sat: 'Norbi',
      NORAD: 46494,
    });
    await waitFor(() => messages.length === 3);
    expect(messages[0]).toEqual({
      topic: stationTopic(user.id, 'Cmd_GS', 'cmnd', 'tx'),
      payload: Buffer.from([0x00, 0xff, 0x10]),
    });
    expect(JSON.parse(messages[1]?.payload.toString() ?? '')).toEqual(['Norbi', 46494]);
    expect(JSON.parse(messages[2]?.payload.toString() ?? '')).toMatchObject({
      mode: 'LoRa',
      freq: 436.703,
      sat: 'Norbi',
    });

    // The station answers cmnd/status with stat/status.
    client.on('message', (topic) => {
      if (topic.endsWith('/cmnd/status')) {
        client.publish(
          stationTopic(user.id, 'Cmd_GS', 'stat', 'status'),
          JSON.stringify({ version: 2603242, satellite: 'Norbi', frequency: 436.703 }),
        );
      }
    });
    await expect(commands.status(id, 3_000)).resolves.toMatchObject({
      satellite: 'Norbi',
      frequency: 436.703,
    });

    await buildStation(db(), { userId: user.id, name: 'Sleeping_GS' });
    await expect(commands.reset(`Sleeping_GS@${user.id}`)).rejects.toBeInstanceOf(NotOnlineError);
    await expect(commands.log('Nobody@1', 'hi')).rejects.toBeInstanceOf(NotOnlineError);
    await client.endAsync();
    await waitFor(() => !commands.isOnline(id));
    await expect(commands.update(id)).rejects.toBeInstanceOf(NotOnlineError);
  });

  it('auto-tunes a station to the satellite of its band that is overhead', async () => {
    const tle = leoTle('NORBI', 46494, { raanDeg: 200 });
    await setSatelliteTle(db(), 'Norbi', tle);
    await server.ctx.services.network?.catalogue.refresh();
    const point = subSatellitePoint(parseTle(tle), Date.now());
    if (!point) throw new Error('test TLE does not propagate');
    const user = await buildUser(db());
    const client = await connectStation(server, user, 'Tune_GS', {
      station_location: [point.lat, point.lng],
      sat: 'FEES',
    });
    const messages = collect(client);
    const id = `Tune_GS@${user.id}`;
    await waitFor(
      async () =>
        (await db().selectFrom('stations').select('status').where('id', '=', id).executeTakeFirst())
          ?.status === 1,
    );
    await db().updateTable('stations').set({ autoTune: 433 }).where('id', '=', id).execute();

    const begine = await waitFor(() =>
      messages.find((m) => m.topic === stationTopic(user.id, 'Tune_GS', 'cmnd', 'begine')),
    );
    expect(JSON.parse(begine.payload.toString())).toMatchObject({
      mode: 'LoRa',
      freq: 436.703,
      sat: 'Norbi',
      NORAD: 46494,
    });
    await waitFor(
      async () =>
        (
          await db()
            .selectFrom('stations')
            .select('satellite')
            .where('id', '=', id)
            .executeTakeFirst()
        )?.satellite === 'Norbi',
    );
    // Already on the best satellite: no further retune.
    await new Promise((r) => setTimeout(r, 400));
    expect(messages.filter((m) => m.topic.endsWith('/cmnd/begine'))).toHaveLength(1);
    await client.endAsync();
  });
});
