// A transaction of the server's SQLite connection while another connection writes to the same file,
// as the ingest's writer thread does many times a second on a live network: an owner's change that
// reads and then writes must not fail because the other connection committed in between.
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { buildUser } from './factories';
import { testEnv, type TestEnv } from './harness';

describe('SQLite transactions beside another writing connection', () => {
  let env: TestEnv;
  let database: Db;
  let other: SQLite.Database;

  beforeAll(async () => {
    env = await testEnv('sqlite');
    database = openDatabase(env.config.database);
    await migrateToLatest(database.db, 'sqlite');
    await buildUser(database.db);
    if (database.native.dialect !== 'sqlite') throw new Error('expected SQLite');
    // The other writer does not wait for the lock: a write refused shows at once.
    other = new SQLite(database.native.sqlite.name, { timeout: 0 });
  });
  afterAll(async () => {
    other?.close();
    await database?.close();
    await env?.cleanup();
  });

  it('reads, lets no other commit slip in before its write, and commits', async () => {
    let otherRefused = false;
    await database.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('id').executeTakeFirstOrThrow();
      // Another connection tries to commit between this transaction's read and its write.
      try {
        other.prepare("update users set display_name = 'other'").run();
      } catch (err) {
        otherRefused = (err as { code?: string }).code?.startsWith('SQLITE_BUSY') ?? false;
      }
      await trx
        .updateTable('users')
        .set({ newsletterFrequency: 'weekly' })
        .where('id', '=', user.id)
        .execute();
    });
    expect(otherRefused).toBe(true);
    expect(
      (
        await database.db
          .selectFrom('users')
          .select('newsletterFrequency')
          .executeTakeFirstOrThrow()
      ).newsletterFrequency,
    ).toBe('weekly');
    // Once it has committed, the other connection writes as before.
    other.prepare("update users set display_name = 'other'").run();
    expect(other.prepare('select count(*) as n from users').get()).toEqual({ n: 1 });
  });
});
