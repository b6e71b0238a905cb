// GET /v1/search at a realistic size (20,000 stations, a few hundred satellites): the same answers
// as the scan of every name it replaced, kept current as stations and satellites come, change and
// go, and served from the trigram indexes (FTS5 on SQLite, pg_trgm on PostgreSQL).
import { SearchResponseSchema, type SearchResponse } from '@tinygs/contracts';
import { sql, type Kysely, type SqlBool } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema';
import { SEARCH_LIMIT } from '../src/public-api/search/routes';
import { satelliteSearchQuery, stationSearchQuery } from '../src/repositories/public/search-reads';
import { upsertSatellites, type CatalogueEntry } from '../src/seed/catalogue';
import { buildStation, buildStations, buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const STATIONS = 20_000;
const EXTRA_SATELLITES = 300;
const PREFIXES = ['EA', 'DL', 'G', 'F', 'JA', 'K', 'VK', 'PY', 'LU', 'OH', 'SP', 'UR', 'ZL', 'W'];
const WORDS = ['home', 'roof', 'yagi', 'qfh', 'dipole', 'ttgo', 'heltec', 'garden', 'lora', 'club'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Station names as owners pick them (a call sign, a word, a number), the same on every run. */
function stationNames(count: number): string[] {
  let seed = 20_250_101;
  const pick = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const call = `${PREFIXES[pick(PREFIXES.length)]}${pick(10)}${[0, 1, 2].map(() => LETTERS[pick(26)]).join('')}`;
    return `${call}_${WORDS[pick(WORDS.length)]}${i % 7 === 0 ? '' : pick(100)}_${i}`;
  });
}

/** Station names allow letters, digits and _ only; display names of satellites are free text. */
const ODD_STATIONS = ['Madrid_Rooftop', 'Under_score_Yagi', 'ABCD', 'x_9_'];
const ODD_SATELLITES: [string, string][] = [
  ['Quote-Sat', 'Quote"d Cube'],
  ['Irish-1', "O'Brien Sat"],
  ['Percent-1', '100% Uptime'],
  ['Slash-1', 'Back\\slash QFH'],
  ['Syntax-1', 'NEAR OR AND (x*)'],
  ['Umlaut-1', 'Ümlaut Straße'],
  ['Tokyo-1', '東京 Cube'],
];

/** What /v1/search answered before it had an index: every name compared, nothing else read. */
function scanned(db: Kysely<Database>, q: string) {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: string) =>
    sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  const norad = /^\d{1,9}$/.test(q) ? Number(q) : -1;
  return Promise.all([
    db
      .selectFrom('satellites')
      .select(['name', 'displayName', 'status'])
      .where((eb) => eb.or([like('name'), like('displayName'), eb('norad', '=', norad)]))
      .orderBy('name')
      .limit(20)
      .execute(),
    db
      .selectFrom('stations')
      .select(['id', 'name', 'userId'])
      .where(like('name'))
      .orderBy('name')
      .limit(20)
      .execute(),
  ]).then(([satellites, stations]) => ({ satellites, stations }));
}

function satellite(name: string, displayName: string, norad: number | null): CatalogueEntry {
  return {
    name,
    invented: false,
    displayName,
    norad,
    status: 'Supported',
    description: '',
    longDescription: '',
    launchDate: null,
    configurations: [],
    tle: null,
    images: [],
    decoder: null,
    webTemplate: null,
  };
}

describe.each(DIALECTS)('search on %s', (dialect) => {
  let server: TestServer;
  let db: Kysely<Database>;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    db = server.ctx.database.db;
    const users: string[] = [];
    for (let i = 0; i < 40; i += 1) users.push((await buildUser(db)).id);
    const stations = [...stationNames(STATIONS - ODD_STATIONS.length), ...ODD_STATIONS].map(
      (name, i) => ({ userId: users[i % users.length] ?? '', name }),
    );
    await buildStations(db, stations);
    const extra = [
      ...Array.from({ length: EXTRA_SATELLITES }, (_, i) =>
        satellite(`Cube-${i}`, `CUBESAT ${1000 + i}`, 80_000 + i),
      ),
      ...ODD_SATELLITES.map(([name, displayName]) => satellite(name, displayName, null)),
    ];
    await upsertSatellites(
      server.ctx.database,
      extra.map((entry) => ({ entry, template: '' })),
    );
    // What autovacuum keeps current on a running database.
    if (dialect === 'postgres') await sql`analyze stations, satellites`.execute(db);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function search(q: string): Promise<SearchResponse> {
    const res = await server.app.inject({
      method: 'GET',
      url: `/v1/search?q=${encodeURIComponent(q)}`,
    });
    expect(res.statusCode, q).toBe(200);
    return SearchResponseSchema.parse(res.json());
  }

  it('answers every query as the scan of every name did', async () => {
    const queries = [
      'madrid',
      'MADRID_R',
      'ea1',
      'ea12',
      '_yagi',
      'roof1',
      'under_s',
      'fossa',
      'cubesat 1',
      '46494',
      '8012',
      '100%',
      '%',
      '_',
      'back\\s',
      '\\',
      'quote"d',
      '"',
      "o'brien",
      'near or',
      'OR',
      '(x*)',
      '*',
      'ümlaut',
      'straße',
      '東京',
      'ab',
      'x',
      'zq',
      'no station is called this',
      'a'.repeat(100),
    ];
    for (const q of queries) {
      expect(await search(q), q).toEqual(await scanned(db, q));
    }
    // Not vacuous: the index finds what it should.
    expect((await search('madrid_r')).stations.map((s) => s.name)).toEqual(['Madrid_Rooftop']);
    expect((await search('46494')).satellites.map((s) => s.name)).toEqual(['Norbi']);
    expect((await search('100%')).satellites.map((s) => s.name)).toEqual(['Percent-1']);
    expect((await search('quote"d')).satellites.map((s) => s.name)).toEqual(['Quote-Sat']);
    expect((await search('fossa')).satellites.length).toBeGreaterThan(0);
    expect((await search('_yagi')).stations.length).toBe(20);
  });

  it('keeps the index in step as stations and satellites come, change and go', async () => {
    const owner = await buildUser(db);
    const id = await buildStation(db, { userId: owner.id, name: 'Zephyrine_Loop' });
    const stationNames = async (q: string) => (await search(q)).stations.map((s) => s.id);
    expect(await stationNames('ephyrin')).toEqual([id]);
    // Counters change all the time and leave the index alone; a new name replaces the old one.
    await db.updateTable('stations').set({ telemetryPackets: 5 }).where('id', '=', id).execute();
    expect(await stationNames('ephyrin')).toEqual([id]);
    await db.updateTable('stations').set({ name: 'Quasimodo_Loop' }).where('id', '=', id).execute();
    expect(await stationNames('ephyrin')).toEqual([]);
    expect(await stationNames('asimodo')).toEqual([id]);
    await db.deleteFrom('stations').where('id', '=', id).execute();
    expect(await stationNames('asimodo')).toEqual([]);

    const satelliteNames = async (q: string) => (await search(q)).satellites.map((s) => s.name);
    await upsertSatellites(server.ctx.database, [
      { entry: satellite('Kestrel-1', 'KESTREL ONE', 99_501), template: '' },
    ]);
    expect(await satelliteNames('estrel o')).toEqual(['Kestrel-1']);
    await upsertSatellites(server.ctx.database, [
      { entry: satellite('Kestrel-1', 'HAWK TWO', 99_501), template: '' },
    ]);
    expect(await satelliteNames('estrel o')).toEqual([]);
    expect(await satelliteNames('hawk t')).toEqual(['Kestrel-1']);
    expect(await satelliteNames('kestrel')).toEqual(['Kestrel-1']);
    await db.updateTable('satellites').set({ frames: 9 }).where('name', '=', 'Kestrel-1').execute();
    expect(await satelliteNames('hawk t')).toEqual(['Kestrel-1']);
    await db.deleteFrom('satellites').where('name', '=', 'Kestrel-1').execute();
    expect(await satelliteNames('kestrel')).toEqual([]);
    // Answers are checked against the rows, so a stale index entry would not show above: FTS5
    // compares its index with the tables itself (and fails the statement when they differ).
    const native = server.ctx.database.native;
    if (native.dialect === 'sqlite') {
      for (const index of ['stations_search', 'satellites_search']) {
        native.sqlite
          .prepare(`insert into ${index}(${index}, rank) values ('integrity-check', 1)`)
          .run();
      }
    }
  });

  it('reads the trigram indexes instead of every row', async () => {
    type Compilable = { compile(): { sql: string; parameters: readonly unknown[] } };
    const native = server.ctx.database.native;
    /** The plan of the statement the route runs, with its parameters. */
    const plan = async (query: Compilable, indexesOnly = false): Promise<string> => {
      const { sql: text, parameters } = query.compile();
      if (native.dialect === 'sqlite') {
        const rows = native.sqlite.prepare(`explain query plan ${text}`).all(...parameters);
        return (rows as { detail: string }[]).map((r) => r.detail).join('\n');
      }
      const client = await native.pool.connect();
      try {
        await client.query('begin');
        if (indexesOnly) {
          await client.query('set local enable_seqscan = off');
          await client.query('set local enable_indexscan = off');
        }
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${text}`, [
          ...parameters,
        ]);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await client.query('rollback');
        client.release();
      }
    };
    const database = server.ctx.database;
    const stations = await plan(stationSearchQuery(database, 'ea4g', 20));
    const satellites = await plan(satelliteSearchQuery(database, 'cubesat 12', 20));
    if (dialect === 'sqlite') {
      expect(stations).toMatch(/SCAN stations_search VIRTUAL TABLE INDEX/);
      expect(stations).not.toMatch(/SCAN stations(?!_search)/);
      expect(satellites).toMatch(/SCAN satellites_search VIRTUAL TABLE INDEX/);
      expect(satellites).toMatch(/satellites_norad_idx/);
      expect(satellites).not.toMatch(/SCAN satellites(?!_search)/);
    } else {
      expect(stations).toMatch(/Bitmap Index Scan on stations_name_trgm_idx/);
      expect(stations).not.toMatch(/Seq Scan/);
      // A few hundred satellites: reading them in name order is rightly the cheaper plan, so this
      // only shows the trigram indexes serve the search once whole-table reads are ruled out.
      const forced = await plan(satelliteSearchQuery(database, 'cubesat 1234', 20), true);
      expect(forced).toMatch(/Bitmap Index Scan on satellites_name_trgm_idx/);
      expect(forced).toMatch(/Bitmap Index Scan on satellites_display_name_trgm_idx/);
      expect(forced).not.toMatch(/Seq Scan/);
    }
  });

  it('answers one client 120 searches a minute, then 429 while others go on', async () => {
    const from = (remoteAddress: string) =>
      server.app.inject({ method: 'GET', url: '/v1/search?q=ab', remoteAddress });
    for (let i = 0; i < SEARCH_LIMIT.perClient; i += 1) {
      expect((await from('198.51.100.7')).statusCode).toBe(200);
    }
    const over = await from('198.51.100.7');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect((await from('198.51.100.8')).statusCode).toBe(200);
  });

  it('refuses search text over 100 characters before any lookup', async () => {
    const res = await server.app.inject({ method: 'GET', url: `/v1/search?q=${'a'.repeat(101)}` });
    expect(res.statusCode).toBe(400);
  });
});
