// Export streams matching packets in keyset pages, at most `limit` rows from a range of at most 31
// days, and says what it applied: 20,000 rows arrive complete and in order over two requests that
// follow X-Export-Next-From, as JSON or CSV; station exports are the owner's.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { hexId, insertPackets } from './public-fixtures';

const ROWS = 20_000;

describe.each(DIALECTS)('packet export on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let other: LoggedIn;
  let stationId: string;
  const t0 = Date.UTC(2026, 0, 1);

  beforeAll(async () => {
    server = await startTestServer(dialect, { listen: true });
    owner = await loggedInUser(server);
    other = await loggedInUser(server);
    stationId = await buildStation(server.ctx.database.db, { name: 'Exporter', userId: owner.id });
    await insertPackets(
      server.ctx.database.db,
      Array.from({ length: ROWS }, (_, i) => ({
        id: hexId(i + 1),
        satellite: 'Norbi',
        // Pairs of packets share a time: the keyset must order by (serverTime, id) to lose none.
        serverTime: t0 + Math.floor(i / 2) * 1000,
        stations: i % 4 === 0 ? [{ id: stationId, userId: owner.id }] : [],
      })),
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('streams all 20,000 packets of a satellite as JSON, oldest first, 10,000 per request', async () => {
    const first = await fetch(
      `${server.url}/v1/export/packets?satellite=Norbi&format=json&from=${t0}&limit=10000`,
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('content-disposition')).toContain('Norbi.json');
    expect(first.headers.get('x-export-limit')).toBe('10000');
    const nextFrom = first.headers.get('x-export-next-from');
    expect(nextFrom).not.toBeNull();
    const page1 = (await first.json()) as { id: string; serverTime: number }[];
    expect(page1).toHaveLength(10_000);
    const second = await fetch(
      `${server.url}/v1/export/packets?satellite=Norbi&format=json&from=${nextFrom}&limit=10000`,
    );
    expect(second.headers.get('x-export-next-from')).toBeNull();
    const rows = [...page1, ...((await second.json()) as { id: string; serverTime: number }[])];
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]?.id).toBe(hexId(1));
    expect(rows[ROWS - 1]?.id).toBe(hexId(ROWS));
    expect(new Set(rows.map((r) => r.id)).size).toBe(ROWS);
  });

  it('honours limit and says so', async () => {
    const res = await fetch(`${server.url}/v1/export/packets?satellite=Norbi&from=${t0}&limit=5`);
    const rows = (await res.json()) as { id: string }[];
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5].map(hexId));
    expect(res.headers.get('x-export-limit')).toBe('5');
    expect(res.headers.get('x-export-next-from')).toBe(String(t0 + 2000));
    // The default is 1000 rows.
    const plain = await fetch(`${server.url}/v1/export/packets?satellite=Norbi&from=${t0}`);
    expect(((await plain.json()) as unknown[]).length).toBe(1000);
  });

  it('exports at most 31 days: a longer range is refused, missing ends are filled', async () => {
    const day = 24 * 3600 * 1000;
    const tooLong = await fetch(
      `${server.url}/v1/export/packets?satellite=Norbi&from=${t0}&to=${t0 + 32 * day}`,
    );
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain('31 days');
    const open = await fetch(`${server.url}/v1/export/packets?satellite=Norbi&from=${t0}&limit=1`);
    expect(open.headers.get('x-export-to')).toBe(String(t0 + 31 * day));
    // No range: the 31 days up to now.
    const before = Date.now();
    const recent = await fetch(`${server.url}/v1/export/packets?satellite=Norbi&limit=1`);
    const to = Number(recent.headers.get('x-export-to'));
    expect(to).toBeGreaterThanOrEqual(before);
    expect(to - Number(recent.headers.get('x-export-from'))).toBe(31 * day);
  });

  it('streams a time range as CSV with a header line', async () => {
    const from = t0 + 1000 * 1000;
    const to = t0 + 1999 * 1000;
    const res = await fetch(
      `${server.url}/v1/export/packets?satellite=Norbi&format=csv&from=${from}&to=${to}&limit=5000`,
    );
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]?.startsWith('id,serverTime,satellite')).toBe(true);
    expect(lines).toHaveLength(1 + 2000);
  });

  it('exports a station’s packets to its owner only', async () => {
    const url = `${server.url}/v1/export/packets?station=${encodeURIComponent(stationId)}&format=json&from=${t0}&limit=10000`;
    expect((await fetch(url)).status).toBe(401);
    const stranger = await fetch(url, {
      headers: { userId: other.id, sessionToken: other.sessionToken },
    });
    expect(stranger.status).toBe(403);
    const mine = await fetch(url, {
      headers: { userId: owner.id, sessionToken: owner.sessionToken },
    });
    expect(((await mine.json()) as unknown[]).length).toBe(ROWS / 4);
  });

  it('refuses a range that ends before it starts', async () => {
    const res = await fetch(`${server.url}/v1/export/packets?satellite=Norbi&from=2000&to=1000`);
    expect(res.status).toBe(400);
  });
});

describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL statement time-out', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('postgres', { env: { DATABASE_STATEMENT_TIMEOUT_MS: '200' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS', async () => {
    const db = server.ctx.database.db;
    const shown = await sql<{ statementTimeout: string }>`show statement_timeout`.execute(db);
    expect(shown.rows[0]?.statementTimeout).toBe('200ms');
    const started = Date.now();
    await expect(sql`select pg_sleep(5)`.execute(db)).rejects.toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(3000);
    // The connection is still usable afterwards.
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0]?.one).toBe(1);
  });
});
