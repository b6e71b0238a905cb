// The PostgreSQL batch store on a worker thread (network/ingest/postgres/): batches sent together
// commit in the order they were sent and are answered as the in-process store answers the same
// batches; a failed batch fails the ones sent before its failure was known, and later ones run;
// in shared mode two stores racing to store one frame store its packet once; and a server that
// stops leaves none of its connections open, the thread's included.
import { pino } from 'pino';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { inProcessStore, type BatchStore } from '../src/network/ingest/batch-store';
import {
  planBatch,
  type LifecycleOp,
  type ReceptionWrite,
  type WriteOp,
} from '../src/network/ingest/plan-batch';
import { postgresThreadStore } from '../src/network/ingest/postgres/thread-store';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import { createServer } from '../src/server';
import { buildStation, buildUser, packetRow } from './factories';
import { DIALECTS, PG_URL, startTestServer, testEnv, type TestServer } from './harness';
import { connectStation, publishTele, rxPayload, waitFor } from './network-helpers';

const log = pino({ level: 'silent' });
const T = Date.now() - 60_000;
const USER = '8812345';
const STATIONS = ['Alpha_GS', 'Bravo_GS'] as const;
const stationId = (name: string) => `${name}@${USER}`;

let nextPacket = 0x100;
/** A packet id of 24 hex digits, new each time. */
const newPacketId = () =>
  `6a2f0c1e${Date.now().toString(16).slice(-8)}${(nextPacket++).toString(16).padStart(8, '0')}`;

function rx(packetId: string, station: string, creates: boolean, at: number): WriteOp {
  const write: ReceptionWrite = {
    packetId,
    newPacket: creates ? packetRow(packetId, { serverTime: at, unverified: 0 }) : null,
    reception: {
      packetId,
      stationId: stationId(station),
      userId: USER,
      serverTime: at,
      lat: 40.4,
      lng: -3.7,
      distance: 1200,
      crcError: 0,
      rssi: -110,
      snr: -5,
    },
    satelliteName: 'Norbi',
    satDisplayName: 'Norbi',
    satPos: { lat: 10, lng: 20, alt: 500 },
    crcError: false,
    decoded: true,
  };
  return { kind: 'reception', write };
}

const seen = (station: string, at: number): LifecycleOp => ({
  kind: 'seen',
  id: stationId(station),
  at,
  cameOnline: null,
});

async function storedPacket(db: Kysely<Database>, id: string) {
  const packets = await db
    .selectFrom('packets')
    .select(['id', 'stationNumber'])
    .where('id', '=', id)
    .execute();
  const receptions = await db
    .selectFrom('receptions')
    .select('stationId')
    .where('packetId', '=', id)
    .orderBy('stationId')
    .execute();
  return { packets, stations: receptions.map((r) => r.stationId) };
}

async function stationFacts(db: Kysely<Database>) {
  return db
    .selectFrom('stations')
    .select(['id', 'status', 'telemetryPackets', 'confirmedPackets', 'lastSeen'])
    .orderBy('id')
    .execute();
}

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL batch store on a thread', () => {
  /** `threaded` gets the thread stores' batches, `reference` the in-process store's */
  let threaded: TestServer;
  let reference: TestServer;
  const stores: BatchStore[] = [];

  const threadStore = async (server: TestServer, shared = false) => {
    const config = server.ctx.config.database;
    if (config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const store = await postgresThreadStore(config, shared, log);
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    [threaded, reference] = await Promise.all([
      startTestServer('postgres'),
      startTestServer('postgres'),
    ]);
    for (const server of [threaded, reference]) {
      const db = server.ctx.database.db;
      await buildUser(db, { id: USER });
      for (const name of STATIONS) await buildStation(db, { userId: USER, name });
    }
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await threaded?.stop();
    await reference?.stop();
  });

  it('commits batches sent together in order and answers as the in-process store does', async () => {
    const [p1, p2] = [newPacketId(), newPacketId()];
    // Each batch joins the packet the one before it created: run out of order, a join would
    // find no packet to count the station on.
    const batches: WriteOp[][] = [
      [seen('Alpha_GS', T), rx(p1, 'Alpha_GS', true, T + 10)],
      [
        seen('Bravo_GS', T + 20),
        rx(p1, 'Bravo_GS', false, T + 30),
        rx(p2, 'Bravo_GS', true, T + 40),
      ],
      [
        rx(p2, 'Alpha_GS', false, T + 50),
        { kind: 'offline', ids: [stationId('Bravo_GS')], at: T + 60, cause: 'disconnect' },
      ],
    ];
    const store = await threadStore(threaded);
    const answers = await Promise.all(batches.map((ops) => store.write(planBatch(ops, 2))));

    const inProcess = inProcessStore(reference.ctx.database.db);
    const expected = [];
    for (const ops of batches) expected.push(await inProcess.write(planBatch(ops, 2)));
    expect(answers).toEqual(expected);
    expect(answers[0]?.lifecycleChanged).toEqual([stationId('Alpha_GS')]);

    const db = threaded.ctx.database.db;
    const ref = reference.ctx.database.db;
    for (const id of [p1, p2]) {
      const stored = await storedPacket(db, id);
      expect(stored).toEqual({
        packets: [{ id, stationNumber: 2 }],
        stations: [stationId('Alpha_GS'), stationId('Bravo_GS')],
      });
      expect(await storedPacket(ref, id)).toEqual(stored);
    }
    expect(await stationFacts(db)).toEqual(await stationFacts(ref));
    expect(await readCounters(db)).toEqual(await readCounters(ref));
  });

  it('fails the batches sent before an earlier one failed, and writes the ones sent after', async () => {
    const store = await threadStore(threaded);
    const db = threaded.ctx.database.db;
    const [stored, next] = [newPacketId(), newPacketId()];
    await store.write(planBatch([rx(stored, 'Alpha_GS', true, T + 100)], 0));

    // The same packet created again: its insert fails (the packet id is taken).
    const failing = store.write(planBatch([rx(stored, 'Bravo_GS', true, T + 100)], 0));
    const sentMeanwhile = store.write(planBatch([rx(next, 'Bravo_GS', true, T + 110)], 0));
    await expect(failing).rejects.toThrow();
    await expect(sentMeanwhile).rejects.toThrow(/earlier batch failed/);
    expect((await storedPacket(db, next)).packets).toEqual([]);

    const before = await readCounters(db);
    await store.write(planBatch([rx(next, 'Bravo_GS', true, T + 110)], 0));
    expect(await storedPacket(db, next)).toEqual({
      packets: [{ id: next, stationNumber: 1 }],
      stations: [stationId('Bravo_GS')],
    });
    expect((await readCounters(db)).receptions).toBe(before.receptions + 1);
  });

  it('stores a frame once when two shared stores race to store it', async () => {
    const a = await threadStore(threaded, true);
    const b = await threadStore(threaded, true);
    expect([a.shared, b.shared]).toEqual([true, true]);
    const db = threaded.ctx.database.db;
    for (let round = 0; round < 5; round += 1) {
      const id = newPacketId();
      const at = T + 1000 + round;
      const before = await readCounters(db);
      // Both instances got the frame's claim and carry its packet row; Alpha's copy reached both.
      const [fromA, fromB] = await Promise.all([
        a.write(planBatch([rx(id, 'Alpha_GS', true, at)], 0, true)),
        b.write(
          planBatch([rx(id, 'Bravo_GS', true, at + 1), rx(id, 'Alpha_GS', true, at)], 0, true),
        ),
      ]);
      expect(await storedPacket(db, id)).toEqual({
        packets: [{ id, stationNumber: 2 }],
        stations: [stationId('Alpha_GS'), stationId('Bravo_GS')],
      });
      const after = await readCounters(db);
      expect(after.packets - before.packets).toBe(1);
      expect(after.receptions - before.receptions).toBe(2);
      // Announced once, by the batch that created it; Alpha's second copy is a duplicate.
      const created = [fromA, fromB].flatMap((w) => w.receptions?.events.newPackets ?? []);
      expect(created.map((p) => p.packetId)).toEqual([id]);
      expect((fromA.receptions?.stored ?? 0) + (fromB.receptions?.stored ?? 0)).toBe(2);
      expect((fromA.receptions?.duplicates ?? 0) + (fromB.receptions?.duplicates ?? 0)).toBe(1);
    }
  });
});

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL connections of a server', () => {
  it('are all closed when the server stops, the writer thread’s included', async () => {
    const env = await testEnv('postgres');
    const config = env.config;
    if (config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    // Every connection of this server, the thread's too (it connects with the same settings).
    const name = `t_writer_${Math.random().toString(36).slice(2, 10)}`;
    const url = new URL(config.database.url);
    url.searchParams.set('application_name', name);
    config.database.url = url.toString();
    const watcher = new pg.Client({ connectionString: PG_URL });
    await watcher.connect();
    const connections = async () =>
      (
        await watcher.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where application_name = $1',
          [name],
        )
      ).rows[0]?.n ?? 0;
    try {
      const server = await createServer(config, {
        log,
        parts: [createNetworkPart({ flushIntervalMs: 20 })],
      });
      try {
        const user = await buildUser(server.ctx.database.db);
        const test: TestServer = { ...server, url: '', stop: () => server.close() };
        const station = await connectStation(test, user, 'Conn_GS');
        await publishTele(station, user, 'Conn_GS', 'rx', rxPayload({ data: 'AAECAwQ=' }));
        await waitFor(async () => (await readCounters(server.ctx.database.db)).receptions === 1);
        await station.endAsync(true);
        expect(await connections()).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
      await waitFor(async () => (await connections()) === 0, 5_000);
    } finally {
      await watcher.end();
      await env.cleanup();
    }
  }, 30_000);
});
