// The station list GET /v1/stations sends is patched from the events that name stations rather
// than read whole for every change: whatever stations come, go and change, each answer is the
// list a full read gives at that moment, while the builds read only the stations named; a change
// no event names shows once the full-read interval has passed.
import { formatStationId, type StationListItem } from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  STATION_LIST_FULL_READ_MS,
  STATION_LIST_MIN_REBUILD_MS,
  stationListOf,
} from '../src/read-models/station-list';
import { listStationListItems } from '../src/repositories/stations';
import { buildStation, buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

/** A small seeded generator: the same rounds every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe.each(DIALECTS)('the station list GET /v1/stations sends, on %s', (dialect) => {
  let server: TestServer;
  let user: BuiltUser;
  const realNow = performance.now.bind(performance);
  let ahead = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    user = await buildUser(server.ctx.database.db);
    for (let i = 0; i < 30; i++)
      await buildStation(server.ctx.database.db, { userId: user.id, name: `Patch_GS_${i}` });
    vi.spyOn(performance, 'now').mockImplementation(() => realNow() + ahead);
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.stop();
  });

  const sent = async () => (await server.app.inject({ method: 'GET', url: '/v1/stations' })).body;
  /** The list as one read of every station gives it now, ordered by station id. */
  const fullRead = async () => {
    const items = await listStationListItems(server.ctx.database.db);
    const id = (s: StationListItem) => formatStationId(s.name, s.userId);
    return JSON.stringify(items.sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0)));
  };

  it('answers after every round of announced changes what a full read gives, reading only the stations named', async () => {
    const db = server.ctx.database.db;
    const list = stationListOf(server.ctx);
    expect(await sent()).toBe(await fullRead());
    const { full, targeted } = list.builds;
    const next = random(dialect === 'sqlite' ? 7 : 11);
    const names = Array.from({ length: 30 }, (_, i) => `Patch_GS_${i}`);
    let created = 0;
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const changed: string[] = [];
      const seen: string[] = [];
      for (let k = 0; k < 4; k++) {
        const name = names[Math.floor(next() * names.length)] as string;
        const id = formatStationId(name, user.id);
        const what = next();
        if (what < 0.3) {
          // A ping: last seen now, nothing a map draws.
          await db
            .updateTable('stations')
            .set({ lastSeen: Date.now() + round * 1_000 + k })
            .where('id', '=', id)
            .execute();
          seen.push(id);
        } else if (what < 0.6) {
          await db
            .updateTable('stations')
            .set({ status: next() < 0.5 ? 0 : 1, lat: Math.round(next() * 1_000) / 10 })
            .where('id', '=', id)
            .execute();
          changed.push(id);
        } else if (what < 0.8) {
          const added = `Patch_New_${created++}`;
          names.push(added);
          changed.push(await buildStation(db, { userId: user.id, name: added }));
        } else {
          await db.deleteFrom('stations').where('id', '=', id).execute();
          names.splice(names.indexOf(name), 1);
          changed.push(id);
        }
      }
      server.ctx.events.publish('stations-changed', { stationIds: changed });
      server.ctx.events.publish('stations-seen', { stationIds: seen });
      // Past the rebuild interval: the next request waits for the build these events call for.
      ahead += STATION_LIST_MIN_REBUILD_MS;
      expect(await sent()).toBe(await fullRead());
    }
    expect(list.builds).toEqual({ full, targeted: targeted + rounds });
  });

  it('shows a change no event announced once the full-read interval has passed', async () => {
    const db = server.ctx.database.db;
    // A station the rounds above left, and another one.
    const [first, second] = JSON.parse(await sent()) as StationListItem[];
    if (!first || !second) throw new Error('the rounds left fewer than two stations');
    const id = formatStationId(first.name, first.userId);
    // A full read now, so that the next one is due only after the interval.
    const { full } = stationListOf(server.ctx).builds;
    ahead += STATION_LIST_FULL_READ_MS;
    await sent();
    await vi.waitFor(() => expect(stationListOf(server.ctx).builds.full).toBe(full + 1));
    const before = await sent();
    await db.updateTable('stations').set({ lng: 12.5 }).where('id', '=', id).execute();
    // Another station's event: a targeted build, which does not read this one.
    server.ctx.events.publish('stations-changed', {
      stationIds: [formatStationId(second.name, second.userId)],
    });
    ahead += STATION_LIST_MIN_REBUILD_MS;
    expect(await sent()).toBe(before);

    ahead += STATION_LIST_FULL_READ_MS;
    // Served as kept while the full read runs behind it, then the read's list.
    await vi.waitFor(async () => expect(await sent()).toBe(await fullRead()));
    const after = (JSON.parse(await sent()) as StationListItem[]).find(
      (s) => s.name === first.name,
    );
    expect(after?.location).toEqual([first.location[0], 12.5]);
  });
});
