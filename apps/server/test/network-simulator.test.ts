// The built-in simulator as `npm start` runs it: virtual stations log in to the embedded broker
// with their owners' real credentials, come online, and behave like firmware when commanded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import { simulatorPart } from '../src/simulator/part';
import { addDemoPhotos } from '../src/simulator/photos';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { waitFor } from './network-helpers';

describe.each(DIALECTS)('simulated stations on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 }), simulatorPart],
      env: { SIMULATED_STATIONS: '6' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('connects every virtual station with its owner account and answers commands', async () => {
    const db = server.ctx.database.db;
    await waitFor(async () => (await readCounters(db)).stations === 6, 15_000);
    const stations = await db.selectFrom('stations').selectAll().orderBy('name').execute();
    expect(stations).toHaveLength(6);
    for (const s of stations) {
      expect(s).toMatchObject({ status: 1, version: 2603242 });
      expect(s.name).toMatch(/^[A-Za-z]+_1$/);
      expect(Math.abs(s.lat)).toBeLessThanOrEqual(90);
    }
    const owners = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where(
        'id',
        'in',
        stations.map((s) => s.userId),
      )
      .execute();
    expect(owners.length).toBeGreaterThanOrEqual(2);

    const commands = server.ctx.services.commands;
    const first = stations[0];
    if (!commands || !first) throw new Error('no command service or station');
    const status = await commands.status(first.id, 5_000);
    expect(status).toMatchObject({ version: 2603242, station_location: [first.lat, first.lng] });

    await commands.begine(first.id, {
      mode: 'LoRa',
      freq: 436.703,
      bw: 250,
      sf: 10,
      cr: 5,
      sat: 'Norbi',
      NORAD: 46494,
    });
    await waitFor(async () => (await commands.status(first.id, 5_000))?.satellite === 'Norbi');
  });

  it('gives a few stations one approved photo each, shown by the Home carousel call, once', async () => {
    const db = server.ctx.database.db;
    await waitFor(async () => (await readCounters(db)).stations === 6, 15_000);
    const ids = (await db.selectFrom('stations').select('id').orderBy('id').execute()).map(
      (r) => r.id,
    );
    await db.deleteFrom('stationPictures').execute();
    expect(await addDemoPhotos(server.ctx, ids, 3)).toBe(3);
    expect(await addDemoPhotos(server.ctx, ids, 3)).toBe(0);
    const res = await server.app.inject({ method: 'GET', url: '/v1/pictures' });
    const photos = res.json<{ stationId: string; src: string }[]>();
    expect(photos.map((p) => p.stationId).sort()).toEqual(ids.slice(0, 3).sort());
    const first = photos[0];
    expect(first).toBeDefined();
    const image = await server.app.inject({ method: 'GET', url: first?.src ?? '' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });
});
