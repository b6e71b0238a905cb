// The live event stream as a browser meets it: GET /sse/events on the listening server announces
// stations and every new packet, after it is stored.
import { NewPacketEventSchema, StationsEventSchema } from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { buildUser, leoTle, setSatelliteTle } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  connectStation,
  openEventStream,
  publishTele,
  rxPayload,
  waitFor,
} from './network-helpers';

describe.each(DIALECTS)('live events on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      listen: true,
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    await setSatelliteTle(server.ctx.database.db, 'Norbi', leoTle('NORBI', 46494));
    await server.ctx.services.network?.catalogue.refresh();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('streams the station list and a new-packet event for a stored packet', async () => {
    const stream = await openEventStream(server.url);
    expect(stream.response.headers['content-type']).toContain('text/event-stream');
    const user = await buildUser(server.ctx.database.db);
    const station = await connectStation(server, user, 'Live_GS');
    const stationId = `Live_GS@${user.id}`;

    const list = await waitFor(() => {
      const e = stream.events.find((ev) => ev.event === 'stations');
      return e && StationsEventSchema.parse(JSON.parse(e.data));
    });
    expect(list.find((s) => s.name === 'Live_GS')).toMatchObject({ userId: user.id, status: 1 });

    await publishTele(station, user, 'Live_GS', 'rx', rxPayload());
    const event = await waitFor(() => {
      const e = stream.events.find((ev) => ev.event === 'new-packet');
      return e && NewPacketEventSchema.parse(JSON.parse(e.data));
    });
    expect(event).toMatchObject({
      satellite: 'Norby',
      satelliteName: 'Norbi',
      stations: [stationId],
    });
    expect(event.satPos.alt).toBeGreaterThan(300);
    const stored = await server.ctx.database.db
      .selectFrom('packets')
      .select(['id', 'satellite'])
      .where('id', '=', event.packetId)
      .executeTakeFirst();
    expect(stored).toEqual({ id: event.packetId, satellite: 'Norbi' });

    stream.close();
    await station.endAsync();
  });

  it('keeps serving other clients when one disconnects', async () => {
    const leaving = await openEventStream(server.url);
    const staying = await openEventStream(server.url);
    leaving.close();
    const user = await buildUser(server.ctx.database.db);
    const station = await connectStation(server, user, 'Live2_GS');
    await publishTele(
      station,
      user,
      'Live2_GS',
      'rx',
      rxPayload({ data: Buffer.from('second live frame').toString('base64') }),
    );
    await waitFor(() =>
      staying.events.some(
        (e) => e.event === 'new-packet' && e.data.includes(`Live2_GS@${user.id}`),
      ),
    );
    staying.close();
    await station.endAsync();
  });
});
