// Leaderboards as a visitor meets them: stations ranked by confirmed packets, satellites heard and
// record distance, satellites by packets, over the last 30 days and all time, from frames that
// went through the real broker and ingest (and older ones written by the same batch code with
// older times). The migration's backfill must give what the ingest counted.
import {
  LeaderboardResponseSchema,
  type LeaderboardEntry,
  type LeaderboardResponse,
} from '@tinygs/contracts';
import { subSatellitePoint, parseTle } from '@tinygs/orbit';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as leaderboardMigration from '../src/db/migrations/0015_leaderboards';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { deleteStationWithPictures } from '../src/repositories/stations';
import { createNetworkPart } from '../src/network/part';
import { planBatch, type WriteOp } from '../src/network/ingest/plan-batch';
import { writesOf } from '../src/network/ingest/batch-store';
import { writeBatch } from '../src/network/ingest/write-batch';
import { LeaderboardReader, topValues } from '../src/public-api/leaderboards/aggregates';
import { readLeaderboard } from '../src/public-api/leaderboards/service';
import { readCounters } from '../src/repositories/counters';
import realFrames from '../src/simulator/real-frames.json';
import {
  buildStation,
  buildUser,
  leoTle,
  packetRow,
  setSatelliteTle,
  type BuiltUser,
} from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, publishTele, rxPayload, waitFor } from './network-helpers';
import { hexId, insertPackets } from './public-fixtures';

const DAY = 86_400_000;
const SATELLITES = {
  Norbi: 46494,
  FEES: 48082,
  'FossaSat-2E1': 52747,
  'SATLLA-2B': 51014,
} as const;
type Sat = keyof typeof SATELLITES;
const frame = (sat: Sat, i: number): string => realFrames[sat][i] ?? '';

/** Receptions written by the ingest's batch code at an earlier time (decoded, one new packet each). */
async function writeOldReceptions(
  db: Kysely<Database>,
  station: { id: string; userId: string },
  satellite: Sat,
  at: number,
  count: number,
  distance: number,
): Promise<void> {
  const ops: WriteOp[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = hexId(Math.floor(at / 1000) + i);
    const newPacket = packetRow(id, {
      satellite,
      norad: SATELLITES[satellite],
      serverTime: at + i,
      frameHash: `old-${id}`,
    });
    ops.push({
      kind: 'reception',
      write: {
        packetId: id,
        newPacket,
        reception: {
          packetId: id,
          stationId: station.id,
          userId: station.userId,
          serverTime: at + i,
          lat: 0,
          lng: 0,
          distance,
          crcError: 0,
        },
        satelliteName: satellite,
        satDisplayName: satellite,
        satPos: null,
        crcError: false,
        decoded: true,
      },
    });
  }
  await db.transaction().execute((trx) => writeBatch(trx, writesOf(planBatch(ops, 0))));
}

const brief = (e: LeaderboardEntry) => [e.rank, e.station?.name ?? e.satellite?.name, e.value];

describe('the top of a board', () => {
  it('is the head of the whole board sorted, higher values first and equal ones by id, without the empty ones', () => {
    // Ten thousand stations with few distinct values (many ties), some with nothing.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const values = Array.from({ length: 10_000 }, (_, i) => ({
      id: `Station_${next() % 100_000}_${i}`,
      value: next() % 50,
    }));
    const sorted = values
      .filter((v) => v.value > 0)
      .sort((a, b) => b.value - a.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const n of [1, 10, 100, 200, 20_000])
      expect(topValues(values, n)).toEqual(sorted.slice(0, n));
  });
});

describe.each(DIALECTS)('leaderboards on %s', (dialect) => {
  let server: TestServer;
  let user: BuiltUser;
  const clients: MqttClient[] = [];
  const db = () => server.ctx.database.db;
  const id = (name: string) => `${name}@${user.id}`;
  /** Every board and period as first read over HTTP (the answers are then kept a minute). */
  const first = new Map<string, LeaderboardResponse>();

  const get = (query: string) =>
    server.app.inject({ method: 'GET', url: `/v1/leaderboards?${query}` });
  const board = async (query: string): Promise<LeaderboardResponse> => {
    const res = await get(query);
    expect(res.statusCode, res.body).toBe(200);
    return LeaderboardResponseSchema.parse(res.json());
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    // One orbit for every satellite: a station's distance depends on where it stands.
    const tle = leoTle('TEST', 46494);
    for (const sat of Object.keys(SATELLITES)) await setSatelliteTle(db(), sat, tle);
    await server.ctx.services.network?.catalogue.refresh();
    const point = subSatellitePoint(parseTle(tle), Date.now());
    if (!point) throw new Error('test TLE does not propagate');
    user = await buildUser(db());
    const places: Record<string, [number, number]> = {
      Alpha_GS: [point.lat + 0.3, point.lng],
      Bravo_GS: [point.lat - 3, point.lng + 1],
      Charlie_GS: [point.lat + 1.5, point.lng],
    };
    for (const [name, location] of Object.entries(places))
      clients.push(await connectStation(server, user, name, { station_location: location }));
    await waitFor(async () => (await readCounters(db())).stations === 3);

    // Ten days ago Bravo heard 2 FEES packets, close by: in the 30 days.
    await writeOldReceptions(
      db(),
      { id: id('Bravo_GS'), userId: user.id },
      'FEES',
      Date.now() - 10 * DAY,
      2,
      5,
    );
    // Forty days ago Charlie heard 10 FEES packets from very far: all-time only.
    await writeOldReceptions(
      db(),
      { id: id('Charlie_GS'), userId: user.id },
      'FEES',
      Date.now() - 40 * DAY,
      10,
      3000,
    );

    const sends: [string, Sat, number][] = [
      ['Alpha_GS', 'Norbi', 0],
      ['Alpha_GS', 'Norbi', 1],
      ['Alpha_GS', 'Norbi', 2],
      ['Bravo_GS', 'Norbi', 0], // joins Alpha's packet
      ['Bravo_GS', 'FEES', 0],
      ['Bravo_GS', 'FEES', 1],
      ['Bravo_GS', 'FossaSat-2E1', 0],
      ['Charlie_GS', 'SATLLA-2B', 0],
    ];
    for (const [station, sat, i] of sends) {
      const client = clients[Object.keys(places).indexOf(station)] as MqttClient;
      const payload = rxPayload({
        station_location: places[station],
        satellite: sat,
        NORAD: SATELLITES[sat],
        data: frame(sat, i),
      });
      await publishTele(client, user, station, 'rx', payload);
    }
    // A frame no decoder reads is a packet of its satellite, but no confirmed packet.
    await publishTele(
      clients[0] as MqttClient,
      user,
      'Alpha_GS',
      'rx',
      rxPayload({
        station_location: places.Alpha_GS,
        data: Buffer.from('noise').toString('base64'),
      }),
    );
    // A CRC-error frame counts for no board.
    await publishTele(
      clients[2] as MqttClient,
      user,
      'Charlie_GS',
      'rx',
      rxPayload({ station_location: places.Charlie_GS, satellite: 'Norbi', crc_error: true }),
    );
    await waitFor(async () => {
      const c = await readCounters(db());
      return c.receptions === 12 + sends.length + 2 && c.crcErrors === 1;
    });
    for (const b of ['packets', 'satellites', 'distance', 'satellite-packets'])
      for (const p of ['30d', 'all'])
        first.set(`${b} ${p}`, await board(`board=${b}&period=${p}&limit=100`));
  });
  afterAll(async () => {
    for (const c of clients) await c.endAsync();
    await server?.stop();
  });

  const entries = (b: string, p: string) => (first.get(`${b} ${p}`)?.entries ?? []).map(brief);

  it('ranks stations by confirmed packets over the last 30 days and all time', () => {
    expect(entries('packets', '30d')).toEqual([
      [1, 'Bravo_GS', 6],
      [2, 'Alpha_GS', 3],
      [3, 'Charlie_GS', 1],
    ]);
    expect(entries('packets', 'all')).toEqual([
      [1, 'Charlie_GS', 11],
      [2, 'Bravo_GS', 6],
      [3, 'Alpha_GS', 3],
    ]);
    const answer = first.get('packets 30d');
    expect(answer?.entries[0]?.station).toEqual({
      id: id('Bravo_GS'),
      name: 'Bravo_GS',
      userId: user.id,
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(new Date(answer?.from ?? 0).toISOString()).toBe(
      new Date(Date.parse(today) - 29 * DAY).toISOString(),
    );
    expect(first.get('packets all')?.from).toBeNull();
  });

  it('ranks stations by satellites heard, equal counts sharing a rank', () => {
    expect(entries('satellites', '30d')).toEqual([
      [1, 'Bravo_GS', 3],
      [2, 'Alpha_GS', 1],
      [2, 'Charlie_GS', 1],
    ]);
    expect(entries('satellites', 'all')).toEqual([
      [1, 'Bravo_GS', 3],
      [2, 'Charlie_GS', 2],
      [3, 'Alpha_GS', 1],
    ]);
  });

  it('ranks stations by record distance, the old far reception counting for all time only', async () => {
    const recent = entries('distance', '30d');
    expect(recent.map((e) => e[1])).toEqual(['Bravo_GS', 'Charlie_GS', 'Alpha_GS']);
    const stations = await db()
      .selectFrom('stations')
      .select(['name', 'recordDistanceKm'])
      .where('userId', '=', user.id)
      .execute();
    const record = Object.fromEntries(stations.map((s) => [s.name, s.recordDistanceKm]));
    expect(record.Charlie_GS).toBe(3000);
    expect(recent[1]?.[2]).toBeLessThan(3000);
    expect(recent[0]?.[2]).toBe(record.Bravo_GS);
    expect(entries('distance', 'all')).toEqual([
      [1, 'Charlie_GS', 3000],
      [2, 'Bravo_GS', record.Bravo_GS],
      [3, 'Alpha_GS', record.Alpha_GS],
    ]);
  });

  it('ranks satellites by packets, a frame heard by two stations counting once', () => {
    expect(entries('satellite-packets', '30d')).toEqual([
      [1, 'FEES', 4],
      [1, 'Norbi', 4],
      [3, 'FossaSat-2E1', 1],
      [3, 'SATLLA-2B', 1],
    ]);
    expect(entries('satellite-packets', 'all')).toEqual([
      [1, 'FEES', 14],
      [2, 'Norbi', 4],
      [3, 'FossaSat-2E1', 1],
      [3, 'SATLLA-2B', 1],
    ]);
    expect(first.get('satellite-packets 30d')?.entries[1]?.satellite).toEqual({
      name: 'Norbi',
      displayName: expect.any(String),
    });
  });

  it('cuts to the limit, defaults to 30 days and 10 rows, and revalidates with the ETag', async () => {
    const top = await board('board=packets&limit=2');
    expect(top.period).toBe('30d');
    expect(top.entries.map(brief)).toEqual(entries('packets', '30d').slice(0, 2));
    const res = await get('board=satellite-packets');
    expect(res.headers.etag).toBeTruthy();
    const again = await server.app.inject({
      method: 'GET',
      url: '/v1/leaderboards?board=satellite-packets',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('refuses unknown boards and periods and limits out of bounds with 400', async () => {
    for (const query of [
      '',
      'board=stations',
      'board=packets&period=7d',
      'board=packets&limit=0',
      'board=packets&limit=101',
      'board=packets&limit=2.5',
      'board=packets&limit=ten',
      `board=${'x'.repeat(10_000)}`,
    ]) {
      const res = await get(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
  });

  it('backfills the aggregates from stored receptions and packets as the ingest counted them', async () => {
    // Rows stored before the leaderboards existed: a station that heard two satellites 40 days
    // ago and one today, and a CRC-error packet that counts for nothing.
    const delta = { id: id('Delta_GS'), userId: user.id };
    await buildStation(db(), { name: 'Delta_GS', userId: user.id });
    const old = Date.now() - 40 * DAY;
    await insertPackets(db(), [
      { id: hexId(1), satellite: 'Norbi', serverTime: old, stations: [delta] },
      { id: hexId(2), satellite: 'SATLLA-2B', serverTime: old, stations: [delta] },
      { id: hexId(3), satellite: 'SATLLA-2B', serverTime: Date.now(), stations: [delta] },
      {
        id: hexId(4),
        satellite: 'FEES',
        serverTime: Date.now(),
        stations: [delta],
        crcError: true,
      },
    ]);
    await leaderboardMigration.down(db() as Kysely<unknown>);
    await leaderboardMigration.up(db() as Kysely<unknown>);

    const now = Date.now();
    const read = async (
      b: 'packets' | 'satellites' | 'distance' | 'satellite-packets',
      p: '30d' | 'all',
    ) => (await readLeaderboard(server.ctx.database, b, p, 100, now)).entries.map(brief);
    // What the ingest had counted is what the backfill counts, with Delta's rows added.
    expect(await read('packets', '30d')).toEqual([
      ...entries('packets', '30d'),
      [3, 'Delta_GS', 1],
    ]);
    expect(await read('satellites', '30d')).toEqual([
      [1, 'Bravo_GS', 3],
      [2, 'Alpha_GS', 1],
      [2, 'Charlie_GS', 1],
      [2, 'Delta_GS', 1],
    ]);
    // Read one station at a time, the pages join up.
    const paged = new LeaderboardReader(server.ctx.database, { day: 1, heard: 1 });
    for (const b of ['packets', 'satellites', 'distance'] as const)
      for (const p of ['30d', 'all'] as const)
        expect((await paged.read(b, p, 100, now)).entries.map(brief)).toEqual(await read(b, p));
    expect(await read('satellites', 'all')).toEqual([
      [1, 'Bravo_GS', 3],
      [2, 'Charlie_GS', 2],
      [2, 'Delta_GS', 2],
      [4, 'Alpha_GS', 1],
    ]);
    const distance = await read('distance', '30d');
    expect(distance.filter((e) => e[1] !== 'Delta_GS').map((e) => e.slice(1))).toEqual(
      entries('distance', '30d').map((e) => e.slice(1)),
    );
    expect(distance.find((e) => e[1] === 'Delta_GS')?.[2]).toBe(1200);
    expect(await read('satellite-packets', '30d')).toEqual([
      [1, 'FEES', 4],
      [1, 'Norbi', 4],
      [3, 'SATLLA-2B', 2],
      [4, 'FossaSat-2E1', 1],
    ]);
  });
  it('takes a deleted station off the boards, and a new one of the same name starts from nothing', async () => {
    const delta = id('Delta_GS');
    expect(await deleteStationWithPictures(server.ctx.database.db, delta)).toBe(true);
    await buildStation(db(), { name: 'Delta_GS', userId: user.id });
    for (const b of ['packets', 'satellites', 'distance'] as const)
      for (const p of ['30d', 'all'] as const) {
        const { entries } = await readLeaderboard(server.ctx.database, b, p, 100);
        expect(entries.map((e) => e.station?.id)).not.toContain(delta);
      }
  });
});
