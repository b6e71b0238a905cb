// The SQLite write path (writer thread and checkpointer thread): the database file itself keeps up
// with what was stored, a clean stop leaves no WAL behind, and batches that cannot be written while
// another process holds the database locked are written afterwards, in order, without loss.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import { createServer, type Server } from '../src/server';
import { buildUser, type BuiltUser } from './factories';
import { testEnv, type TestEnv, type TestServer } from './harness';
import { connectStation, publishTele, rxPayload, waitFor } from './network-helpers';

const frame = (n: number) => Buffer.from(`sqlite-store-test-frame-${n}`).toString('base64');

/** Counts in the database file alone, as a copy of it without its WAL (a backup by file copy). */
function countsInFileAlone(file: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tinygs-copy-'));
  try {
    copyFileSync(file, join(dir, 'copy.db'));
    const db = new Database(join(dir, 'copy.db'));
    try {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      return {
        receptions: count('select count(*) as n from receptions'),
        packets: count('select count(*) as n from packets'),
        receptionsCounter: count(
          "select coalesce(max(value), 0) as n from counters where name = 'receptions'",
        ),
      };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('SQLite write path', () => {
  let env: TestEnv | undefined;
  let server: Server | undefined;
  const clients: MqttClient[] = [];

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.endAsync(true);
    await server?.close();
    server = undefined;
    await env?.cleanup();
    env = undefined;
  });

  async function start(): Promise<{ user: BuiltUser; file: string; test: TestServer }> {
    env = await testEnv('sqlite');
    if (env.config.database.kind !== 'sqlite') throw new Error('expected SQLite');
    server = await createServer(env.config, {
      log: pino({ level: 'silent' }),
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    const s = server;
    const test: TestServer = { ...s, url: '', stop: () => s.close() };
    const user = await buildUser(s.ctx.database.db);
    return { user, file: env.config.database.file, test };
  }

  it('keeps the database file itself current while ingesting and leaves no WAL after a clean stop', async () => {
    const { user, file, test } = await start();
    const station = await connectStation(test, user, 'Copy_GS');
    clients.push(station);
    for (let i = 0; i < 20; i += 1)
      await publishTele(station, user, 'Copy_GS', 'rx', rxPayload({ data: frame(i) }));
    const db = test.ctx.database.db;
    await waitFor(async () => (await readCounters(db)).receptions === 20);
    // Checkpointed in the background within about a second, not only once the WAL reaches 16 MB.
    await waitFor(() => countsInFileAlone(file).receptions === 20, 5_000);

    await station.endAsync(true);
    clients.length = 0;
    await server?.close();
    server = undefined;
    const wal = `${file}-wal`;
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    expect(countsInFileAlone(file)).toEqual({ receptions: 20, packets: 20, receptionsCounter: 20 });
  });

  it('writes the batches refused while another process locks the database, in order, once it lets go', async () => {
    const { user, file, test } = await start();
    const a = await connectStation(test, user, 'Lock_A');
    const b = await connectStation(test, user, 'Lock_B');
    clients.push(a, b);
    const db = test.ctx.database.db;
    await waitFor(async () => (await readCounters(db)).stations === 2);

    const locker = new Database(file);
    locker.exec('begin exclusive');
    try {
      // The same frames from both stations, the second one a little later: each packet is created
      // by a reception of A and joined by one of B, usually in a later batch.
      for (let i = 0; i < 6; i += 1) {
        await publishTele(a, user, 'Lock_A', 'rx', rxPayload({ data: frame(100 + i) }));
        await new Promise((r) => setTimeout(r, 60));
        await publishTele(b, user, 'Lock_B', 'rx', rxPayload({ data: frame(100 + i) }));
        await new Promise((r) => setTimeout(r, 60));
      }
      // Longer than the writer's busy timeout (5 s): the first batch fails.
      await waitFor(() => (test.ctx.services.network?.metrics.batchFailures ?? 0) > 0, 10_000);
    } finally {
      locker.exec('rollback');
      locker.close();
    }

    await waitFor(async () => (await readCounters(db)).receptions === 12, 15_000);
    const packets = await db
      .selectFrom('packets')
      .select(['id', 'stationNumber'])
      .where('raw', 'like', 'c3FsaXRl%')
      .execute();
    expect(packets).toHaveLength(6);
    expect(packets.map((p) => p.stationNumber)).toEqual([2, 2, 2, 2, 2, 2]);
    const receptions = await db
      .selectFrom('receptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(receptions.n)).toBe(12);
  }, 30_000);
});
