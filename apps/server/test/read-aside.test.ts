// Long reads run aside (Db.readAside): on SQLite on a read thread with its own connection, so the
// server keeps answering while one runs; on PostgreSQL as any query. What they answer must be what
// the same query answers on the server's own connection.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/connect';
import { MAX_WAITING_READS, SqliteReadThreads, readThreadsFor } from '../src/db/read-thread';
import { migrateToLatest } from '../src/db/migrate';
import { buildStation, buildUser } from './factories';
import { DIALECTS, testEnv, type TestEnv } from './harness';

describe.each(DIALECTS)('reads aside on %s', (dialect) => {
  let env: TestEnv;
  let database: Db;
  const db = () => database.db;

  beforeAll(async () => {
    env = await testEnv(dialect);
    database = openDatabase(env.config.database);
    await migrateToLatest(db(), dialect);
    const user = await buildUser(db());
    for (const name of ['Alpha_GS', 'Bravo_GS', 'Charlie_GS'])
      await buildStation(db(), { name, userId: user.id });
  });
  afterAll(async () => {
    await database?.close();
    await env?.cleanup();
  });

  const stations = () =>
    db()
      .selectFrom('stations')
      .select(['id', 'name', 'userId', 'confirmedPackets'])
      .where('name', 'like', '%_GS')
      .orderBy('name');

  it('answers what the same query answers on the server connection, camelCase keys and all', async () => {
    const here = await stations().execute();
    expect(here.map((s) => s.name)).toEqual(['Alpha_GS', 'Bravo_GS', 'Charlie_GS']);
    expect(await database.readAside(stations().compile())).toEqual(here);
  });

  it('sees what the server connection committed', async () => {
    await db()
      .updateTable('stations')
      .set({ confirmedPackets: 7 })
      .where('name', '=', 'Bravo_GS')
      .execute();
    const bravo = async () =>
      (
        await database.readAside(
          db()
            .selectFrom('stations')
            .select('confirmedPackets')
            .where('name', '=', 'Bravo_GS')
            .compile(),
        )
      )[0]?.confirmedPackets;
    expect(await bravo()).toBe(7);
  });

  it('reports a failing statement and goes on answering', async () => {
    await expect(
      database.readAside(sql`select * from no_such_table`.compile(db())),
    ).rejects.toThrow(/no_such_table/);
    expect(await database.readAside(stations().compile())).toHaveLength(3);
  });

  it.runIf(dialect === 'sqlite')('never writes', async () => {
    await expect(database.readAside(db().deleteFrom('stations').compile())).rejects.toThrow();
    expect(await stations().execute()).toHaveLength(3);
  });

  it.runIf(dialect === 'sqlite')(
    'keeps the event loop turning while a long read runs',
    async () => {
      // A read that keeps SQLite busy for a while (tens of milliseconds or more on any machine).
      const long = sql<{
        n: number;
      }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000000) select count(*) as n from c`;
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 1);
      try {
        const [row] = await database.readAside(long.compile(db()));
        expect(Number(row?.n)).toBe(3_000_000);
      } finally {
        clearInterval(timer);
      }
      // Run on the event loop, the read would have held every timer until it returned.
      expect(ticks).toBeGreaterThan(0);
    },
  );

  it.runIf(dialect === 'sqlite')(
    'refuses a read past the waiting bound at once, and reads again once the queue drains',
    async () => {
      const reads = Array.from({ length: MAX_WAITING_READS + 1 }, () =>
        database.readAside(stations().compile()).then(
          (rows) => rows.length,
          (err: unknown) => (err as { code?: string }).code ?? 'other',
        ),
      );
      const outcomes = await Promise.all(reads);
      expect(outcomes.filter((o) => o === 'READS_BUSY')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 3)).toHaveLength(MAX_WAITING_READS);
      expect(await database.readAside(stations().compile())).toHaveLength(3);
    },
  );

  it.runIf(dialect === 'sqlite')(
    'answers a short read beside a long one on a second thread, and a read of each thread after one of them failed',
    async () => {
      expect([readThreadsFor(1), readThreadsFor(2), readThreadsFor(16)]).toEqual([1, 2, 2]);
      const config = env.config.database;
      if (config.kind !== 'sqlite') throw new Error('sqlite only');
      const threads = new SqliteReadThreads(config.file, 2);
      try {
        const names = stations().compile();
        const long =
          sql`with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000000) select count(*) as n from c`.compile(
            db(),
          );
        const order: string[] = [];
        const first = threads.all(long.sql, long.parameters).then(() => order.push('long'));
        const second = threads.all(names.sql, names.parameters).then((r) => {
          order.push('short');
          return r.count;
        });
        expect(await second).toBe(3);
        await first;
        // One thread would have answered in the order asked.
        expect(order).toEqual(['short', 'long']);
        await expect(threads.all('select * from no_such_table', [])).rejects.toThrow(
          /no_such_table/,
        );
        const counts = await Promise.all(
          [1, 2, 3, 4].map(async () => (await threads.all(names.sql, names.parameters)).count),
        );
        expect(counts).toEqual([3, 3, 3, 3]);
      } finally {
        await threads.close();
      }
    },
  );
});
