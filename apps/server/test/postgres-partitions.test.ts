// PostgreSQL at network scale (migration 0016): packets and receptions partitioned by month. The
// migration converts a database that already holds packets without losing any, rows land in the
// partition of their id's month, the maintenance job creates months ahead and moves rows out of
// DEFAULT, retention drops whole old months and keeps the newer ones, and the packet page's query
// reads one month of each table. Skipped where PostgreSQL is not reachable (CI has it).
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase, type Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import * as partitionMigration from '../src/db/migrations/0016_partition_packets';
import { partitionMonth } from '../src/db/partition-months';
import type { NewPacket, NewReception } from '../src/db/schema';
import { maintainPartitions, partitionMaintenancePart } from '../src/jobs/partition-maintenance';
import { newPacketId } from '../src/network/ingest/packet-id';
import { insertPacketsIfAbsent, insertReceptions } from '../src/repositories/packets';
import { dropMonthPartition, listMonthPartitions } from '../src/repositories/partitions';
import { packetDetail, packetDetailQuery } from '../src/repositories/public/packet-reads';
import { DIALECTS, startTestServer, testEnv, type TestEnv, type TestServer } from './harness';

const NOW = Date.UTC(2026, 10, 26, 12); // 2026-11-26
const monthsAgo = (n: number, day = 10) => Date.UTC(2026, 10 - n, day, 8);

const packet = (id: string, serverTime: number): NewPacket => ({
  id,
  satellite: 'Norby',
  serverTime,
  raw: 'AAEC',
  frameHash: `hash-${id}`,
  mode: 'LoRa',
  freq: 436.703,
  crcError: 0,
  isTest: 0,
  stationNumber: 1,
  historical: 0,
});
const reception = (packetId: string, station: string, serverTime: number): NewReception => ({
  packetId,
  stationId: `${station}@1`,
  userId: '1',
  serverTime,
  lat: 40,
  lng: -3,
  crcError: 0,
});

describe.skipIf(!DIALECTS.includes('postgres'))(
  'packets partitioned by month on PostgreSQL',
  () => {
    let env: TestEnv;
    let database: Db;
    const count = async (table: string) =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(
            database.db,
          )
        ).rows[0]?.n,
      );
    /** The partition each row of `table` is stored in, by packet id. */
    const placement = async (table: 'packets' | 'receptions') => {
      const key = table === 'packets' ? 'id' : 'packet_id';
      const { rows } = await sql<{ id: string; part: string }>`
      select ${sql.ref(key)} as id, tableoid::regclass::text as part from ${sql.table(table)}`.execute(
        database.db,
      );
      return Object.fromEntries(rows.map((r) => [r.id, r.part]));
    };
    const months = async (table: 'packets' | 'receptions') =>
      (await listMonthPartitions(database.db, table)).map((m) => m.suffix);

    // Packets of three months ago, one month ago, this month, and one imported with a UUID id.
    const old = newPacketId(monthsAgo(3));
    const recent = newPacketId(monthsAgo(1));
    const current = newPacketId(NOW - 3_600_000);
    const imported = 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6';

    beforeAll(async () => {
      env = await testEnv('postgres');
      database = openDatabase(env.config.database);
      await migrateToLatest(database.db, 'postgres');
      // A database as it stood before 0016, with packets in it.
      await partitionMigration.down(database.db);
      expect(await months('packets')).toEqual([]);
      const rows = [
        packet(old, monthsAgo(3)),
        packet(recent, monthsAgo(1)),
        packet(current, NOW - 3_600_000),
        packet(imported, monthsAgo(30)),
      ];
      await insertPacketsIfAbsent(database.db, rows);
      await insertReceptions(
        database.db,
        rows.flatMap((p) => [
          reception(p.id, 'A', p.serverTime),
          reception(p.id, 'B', p.serverTime + 5_000),
        ]),
      );
      await partitionMigration.up(database.db);
    });

    afterAll(async () => {
      await database?.close();
      await env?.cleanup();
    });

    it('converts the stored packets and receptions without losing one', async () => {
      expect(await count('packets')).toBe(4);
      expect(await count('receptions')).toBe(8);
      const p = await placement('packets');
      const suffix = (ms: number) => partitionMonth(ms).suffix;
      expect(p[old]).toBe(`packets_${suffix(monthsAgo(3))}`);
      expect(p[recent]).toBe(`packets_${suffix(monthsAgo(1))}`);
      expect(p[current]).toBe(`packets_${suffix(NOW)}`);
      expect(p[imported]).toBe('packets_default');
      // A packet's receptions sit in its month.
      const r = await placement('receptions');
      for (const id of [old, recent, current, imported])
        expect(r[id]).toBe((p[id] as string).replace('packets', 'receptions'));
      // Months with packets and the months ahead of the migration's own clock; no empty gaps.
      const made = await months('packets');
      expect(made).toContain(suffix(monthsAgo(3)));
      expect(made).toContain(suffix(monthsAgo(1)));
      expect(made).not.toContain(suffix(monthsAgo(2)));
      expect(made).toContain(partitionMonth(Date.now(), 3).suffix);
      expect(await months('receptions')).toEqual(made);
    });

    it('keeps the keys: a packet or reception stored twice is stored once', async () => {
      const inserted = await insertPacketsIfAbsent(database.db, [
        packet(recent, monthsAgo(1)),
        packet(imported, monthsAgo(30)),
      ]);
      expect(inserted.size).toBe(0);
      await expect(
        insertReceptions(database.db, [reception(recent, 'A', monthsAgo(1))]),
      ).rejects.toThrow(/duplicate key/);
      expect(await count('packets')).toBe(4);
    });

    it('creates the months ahead and moves rows that went to DEFAULT into their month', async () => {
      const later = NOW + 200 * 86_400_000; // June 2027, beyond the months the migration made
      const early = newPacketId(later);
      await insertPacketsIfAbsent(database.db, [packet(early, later)]);
      await insertReceptions(database.db, [reception(early, 'A', later)]);
      expect((await placement('packets'))[early]).toBe('packets_default');

      const report = await maintainPartitions(database.db, later, null);
      const month = partitionMonth(later).suffix;
      expect(report.created).toContain(`packets_${month}`);
      expect(report.created).toContain(`receptions_${partitionMonth(later, 3).suffix}`);
      expect(report.moved).toBe(2);
      expect((await placement('packets'))[early]).toBe(`packets_${month}`);
      expect((await placement('receptions'))[early]).toBe(`receptions_${month}`);
      // Every month between the last one and three months past `later` exists, in both tables.
      const made = await months('packets');
      const from = made.indexOf(partitionMonth(Date.now(), 3).suffix);
      expect(made.slice(from).length).toBeGreaterThanOrEqual(4);
      expect(await months('receptions')).toEqual(made);
      // Nothing more to do on a second pass.
      expect(await maintainPartitions(database.db, later, null)).toEqual({
        created: [],
        moved: 0,
        dropped: [],
      });
    });

    it('reads a packet page from one month of packets and one of receptions', async () => {
      const found = await packetDetail(database, recent);
      expect(found?.receptions.map((r) => r.stationId)).toEqual(['A@1', 'B@1']);
      const compiled = packetDetailQuery(database.db, recent).compile();
      const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>({
        ...compiled,
        sql: `explain (costs off) ${compiled.sql}`,
      });
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      const month = partitionMonth(monthsAgo(1)).suffix;
      expect(plan.match(/ on packets_\w+/g)?.map((s) => s.trim())).toEqual([`on packets_${month}`]);
      expect([
        ...new Set(plan.match(/ on receptions_\w+/g)?.map((s) => s.trim().split(' ')[1])),
      ]).toEqual([`receptions_${month}`]);
    });

    it('drops whole months past the retention and keeps the newer ones', async () => {
      const now = Date.now();
      const report = await maintainPartitions(database.db, NOW, 2);
      expect(report.dropped).toContain(`packets_${partitionMonth(monthsAgo(3)).suffix}`);
      expect(report.dropped).toContain(`receptions_${partitionMonth(monthsAgo(3)).suffix}`);
      const p = await placement('packets');
      expect(p[old]).toBeUndefined();
      expect(p[recent]).toBeDefined();
      expect(p[current]).toBeDefined();
      expect(p[imported]).toBe('packets_default'); // no month: never dropped by retention
      const r = await placement('receptions');
      expect(r[old]).toBeUndefined();
      expect(r[recent]).toBeDefined();
      const made = await months('packets');
      expect(made[0]).toBe(partitionMonth(monthsAgo(1)).suffix);
      expect(made).toContain(partitionMonth(now).suffix);
    });
  },
);

describe.each(DIALECTS)('the partition-maintenance part on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates a missing month ahead as soon as it starts (nothing to do on SQLite)', async () => {
    const db = server.ctx.database.db;
    if (dialect === 'sqlite') {
      expect(await partitionMaintenancePart.start(server.ctx)).toBeNull();
      return;
    }
    const ahead = partitionMonth(Date.now(), 3);
    await dropMonthPartition(db, 'receptions', ahead);
    expect((await listMonthPartitions(db, 'receptions')).map((m) => m.suffix)).not.toContain(
      ahead.suffix,
    );
    const running = await partitionMaintenancePart.start(server.ctx);
    try {
      await vi.waitFor(
        async () =>
          expect((await listMonthPartitions(db, 'receptions')).map((m) => m.suffix)).toContain(
            ahead.suffix,
          ),
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      await running?.stop();
    }
  });
});

describe('PACKET_RETENTION_MONTHS', () => {
  const base = {
    DATA_DIR: tmpdir(),
    SERVER_SECRET: 'test-secret-test-secret-test-secret-0123456789',
  };
  it('is refused on SQLite, where packets are not partitioned', () => {
    expect(() =>
      loadConfig({ ...base, DATABASE_URL: 'sqlite:/tmp/x.db', PACKET_RETENTION_MONTHS: '6' }),
    ).toThrow(/PACKET_RETENTION_MONTHS: packet retention needs a PostgreSQL DATABASE_URL/);
  });
  it('is taken as whole months on PostgreSQL, unset keeping everything', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/x';
    const kept = loadConfig({ ...base, DATABASE_URL: url, PACKET_RETENTION_MONTHS: '6' });
    expect(kept.database).toMatchObject({ kind: 'postgres', packetRetentionMonths: 6 });
    const all = loadConfig({ ...base, DATABASE_URL: url });
    expect(all.database).not.toHaveProperty('packetRetentionMonths');
    expect(() => loadConfig({ ...base, DATABASE_URL: url, PACKET_RETENTION_MONTHS: '0' })).toThrow(
      /PACKET_RETENTION_MONTHS/,
    );
  });
});
