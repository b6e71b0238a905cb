// Export streams every matching packet in keyset pages: 20,000 rows arrive complete, in order, as
// JSON or CSV; station exports are the owner's.
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

  it('streams all 20,000 packets of a satellite as JSON, oldest first', async () => {
    const res = await fetch(`${server.url}/v1/export/packets?satellite=Norbi&format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('Norbi.json');
    const rows = (await res.json()) as { id: string; serverTime: number }[];
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]?.id).toBe(hexId(1));
    expect(rows[ROWS - 1]?.id).toBe(hexId(ROWS));
    expect(new Set(rows.map((r) => r.id)).size).toBe(ROWS);
  });

  it('streams a time range as CSV with a header line', async () => {
    const from = t0 + 1000 * 1000;
    const to = t0 + 1999 * 1000;
    const res = await fetch(
      `${server.url}/v1/export/packets?satellite=Norbi&format=csv&from=${from}&to=${to}`,
    );
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]?.startsWith('id,serverTime,satellite')).toBe(true);
    expect(lines).toHaveLength(1 + 2000);
  });

  it('exports a station’s packets to its owner only', async () => {
    const url = `${server.url}/v1/export/packets?station=${encodeURIComponent(stationId)}&format=json`;
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
