// Element-set refresh against a local server speaking CelesTrak's GP formats and SatNOGS DB's
// /api/tle/: newer sets replace held ones and move the satellite on /v1/satellitesWorldmap;
// conditional requests get 304s; stale, invalid and failed answers keep the held set.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { groundDistanceKm, parseTle, subSatellitePoint } from '@tinygs/orbit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { createElementSetsPart } from '../src/elements/part';
import { createNetworkPart } from '../src/network/part';
import { refreshElementSets, type RefreshOptions } from '../src/elements/refresh';
import {
  celestrakOmm,
  celestrakTle,
  satnogsTle,
  shiftedSet,
  startSourceServer,
  type SourceServer,
  type TestSet,
} from './element-sources';
import { CLI_TEST_TIMEOUT_MS, cliEnvironment, runCli } from './cli-process';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const HOUR = 3_600_000;
const GROUP_TLE = '/NORAD/elements/gp.php?GROUP=tinygs&FORMAT=tle';
const GROUP_OMM = '/NORAD/elements/gp.php?GROUP=tinygs&FORMAT=json';
const SATNOGS_TLE = '/api/tle/?format=json';

type Lines = [string, string, string];

describe.each(DIALECTS)('element-set refresh on %s', (dialect) => {
  let server: TestServer;
  let sources: SourceServer;
  const seedSets = new Map<
    string,
    { tle: string | null; tleEpoch: number | null; tleSource: string | null }
  >();

  beforeAll(async () => {
    sources = await startSourceServer();
    server = await startTestServer(dialect, {
      env: { TLE_FETCH_TIMEOUT_MS: '10000', TLE_MAX_BYTES: String(1024 * 1024) },
    });
    const rows = await server.ctx.database.db
      .selectFrom('satellites')
      .select(['name', 'tle', 'tleEpoch', 'tleSource'])
      .execute();
    for (const r of rows) seedSets.set(r.name, r);
  });
  afterAll(async () => {
    await server?.stop();
    await sources?.close();
  });
  beforeEach(async () => {
    // Every test starts from the seeded sets and no stored validators.
    const db = server.ctx.database.db;
    for (const [name, set] of seedSets)
      await db.updateTable('satellites').set(set).where('name', '=', name).execute();
    await db.deleteFrom('elementSetSources').execute();
    sources.requests.length = 0;
  });

  function refresh(paths: string[], options: RefreshOptions = {}, fetchTimeoutMs = 10_000) {
    const ctx = {
      ...server.ctx,
      config: {
        ...server.ctx.config,
        elementSets: {
          ...server.ctx.config.elementSets,
          sources: paths.map((p) => (p.startsWith('/') ? `${sources.url}${p}` : p)),
          fetchTimeoutMs,
        },
      },
    };
    return refreshElementSets(ctx, options);
  }

  async function held(name: string) {
    const row = await server.ctx.database.db
      .selectFrom('satellites')
      .select(['tle', 'tleEpoch', 'tleSource'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return { ...row, tle: JSON.parse(row.tle ?? 'null') as Lines | null };
  }

  function seedLines(name: string): Lines {
    return JSON.parse(seedSets.get(name)?.tle ?? 'null') as Lines;
  }

  /** A newer set (one hour old) with the satellite a quarter orbit away from where the seed has it. */
  function newerSet(name: string, meanAnomalyDeg = 90): TestSet {
    return shiftedSet(seedLines(name), Date.now() - HOUR, meanAnomalyDeg);
  }

  async function worldmapPosition(name: string) {
    const before = Date.now();
    const res = await server.app.inject({ url: '/v1/satellitesWorldmap' });
    const at = (before + Date.now()) / 2;
    const sat = (res.json() as { name: string; lat: number; lng: number }[]).find(
      (s) => s.name === name,
    );
    if (!sat) throw new Error(`${name} not on the world map`);
    return { at, point: [sat.lat, sat.lng] as [number, number] };
  }

  function kmFrom(lines: Lines, at: number, point: [number, number]) {
    const p = subSatellitePoint(parseTle(lines), at);
    if (!p) throw new Error('set does not propagate');
    return groundDistanceKm([p.lat, p.lng], point);
  }

  it('stores a newer TLE-text set, moves the world map to it, then asks conditionally (304)', async () => {
    const next = newerSet('Norbi');
    const before = await worldmapPosition('Norbi');
    expect(kmFrom(seedLines('Norbi'), before.at, before.point)).toBeLessThan(20);
    sources.serve(GROUP_TLE, { body: celestrakTle([next]), etag: '"gp-1"' });

    const report = await refresh([GROUP_TLE]);
    expect(report.ok).toBe(true);
    expect(report.updated).toEqual([
      {
        satellite: 'Norbi',
        norad: 46494,
        epoch: next.elements.epoch.toISOString(),
        previousEpoch: new Date(seedSets.get('Norbi')?.tleEpoch ?? 0).toISOString(),
        source: new URL(sources.url).host,
      },
    ]);
    const stored = await held('Norbi');
    expect(stored.tle).toEqual(next.lines);
    expect(stored.tleEpoch).toBe(next.elements.epoch.getTime());

    // The satellite page's answer: the new set, its epoch and source, not stale.
    const page = (await server.app.inject({ url: '/v1/satellite/Norbi' })).json();
    expect(page).toMatchObject({
      tle: next.lines,
      tleEpoch: next.elements.epoch.getTime(),
      tleSource: new URL(sources.url).host,
      tleStale: false,
    });

    const after = await worldmapPosition('Norbi');
    expect(kmFrom(next.lines, after.at, after.point)).toBeLessThan(20);
    expect(kmFrom(seedLines('Norbi'), after.at, after.point)).toBeGreaterThan(1000);

    const again = await refresh([GROUP_TLE]);
    expect(sources.requests.map((r) => [r.headers['if-none-match'], r.status])).toEqual([
      [undefined, 200],
      ['"gp-1"', 304],
    ]);
    expect(again.sources[0]).toMatchObject({ requests: 1, notModified: 1, fetched: 0 });
    expect(again.updated).toEqual([]);
    expect((await held('Norbi')).tle).toEqual(next.lines);
  });

  it('flags sets older than 7 days as stale in the satellite lists and details', async () => {
    const db = server.ctx.database.db;
    await db
      .updateTable('satellites')
      .set({ tleEpoch: Date.now() - 8 * 24 * HOUR })
      .where('name', '=', 'FEES')
      .execute();
    await db
      .updateTable('satellites')
      .set({ tleEpoch: Date.now() - 6 * 24 * HOUR })
      .where('name', '=', 'Norbi')
      .execute();
    const list = (await server.app.inject({ url: '/v1/satellites' })).json() as {
      name: string;
      tleStale?: boolean;
      tleSource?: string | null;
    }[];
    const byName = new Map(list.map((s) => [s.name, s]));
    expect(byName.get('FEES')).toMatchObject({ tleStale: true, tleSource: 'seed' });
    expect(byName.get('Norbi')).toMatchObject({ tleStale: false, tleSource: 'seed' });
    const detail = (await server.app.inject({ url: '/v1/satellite/FEES' })).json();
    expect(detail.tleStale).toBe(true);
  });

  it('reads OMM JSON with Last-Modified and SatNOGS DB /api/tle/, keeping the newest set per satellite', async () => {
    const fees = newerSet('FEES');
    const older = shiftedSet(seedLines('SATLLA-2B'), Date.now() - 3 * HOUR, 10);
    const newest = shiftedSet(seedLines('SATLLA-2B'), Date.now() - 2 * HOUR, 200);
    const modified = new Date(Date.now() - HOUR).toUTCString();
    sources.serve(GROUP_OMM, {
      body: celestrakOmm([fees, older]),
      contentType: 'application/json',
      lastModified: modified,
    });
    sources.serve(SATNOGS_TLE, { body: satnogsTle([newest]), contentType: 'application/json' });

    const report = await refresh([GROUP_OMM, SATNOGS_TLE]);
    expect(report.updated.map((u) => u.satellite).sort()).toEqual(['FEES', 'SATLLA-2B']);
    expect((await held('FEES')).tle).toEqual(fees.lines);
    expect((await held('SATLLA-2B')).tle).toEqual(newest.lines);

    await refresh([GROUP_OMM]);
    const omm = sources.requests.filter((r) => r.path === GROUP_OMM);
    expect(omm.map((r) => [r.headers['if-modified-since'], r.status])).toEqual([
      [undefined, 200],
      [modified, 304],
    ]);
  });

  it('asks per satellite with {NORAD} and refuses an answer about another satellite', async () => {
    const norbi = newerSet('Norbi');
    const fees = newerSet('FEES');
    sources.serve('/gp.php?CATNR=46494&FORMAT=tle', { body: celestrakTle([norbi]) });
    // A wrong answer for SATLLA-2B: FEES's set.
    sources.serve('/gp.php?CATNR=51014&FORMAT=tle', { body: celestrakTle([fees]) });
    const report = await refresh(['/gp.php?CATNR={NORAD}&FORMAT=tle']);
    const asked = sources.requests.map((r) => r.path);
    expect(asked).toContain('/gp.php?CATNR=46494&FORMAT=tle');
    expect(asked).toContain('/gp.php?CATNR=48082&FORMAT=tle');
    // Retired satellites are not asked for.
    const retired = await server.ctx.database.db
      .selectFrom('satellites')
      .select('norad')
      .where('status', '=', 'Inactive')
      .where('norad', 'is not', null)
      .execute();
    expect(retired.length).toBeGreaterThan(0);
    for (const r of retired) expect(asked.join(' ')).not.toContain(`CATNR=${r.norad}&`);
    expect(report.updated.map((u) => u.satellite)).toEqual(['Norbi']);
    expect(report.rejected).toContainEqual(
      expect.objectContaining({
        norad: 48082,
        reason: expect.stringMatching(/answer for NORAD 51014/),
      }),
    );
    expect((await held('FEES')).tle).toEqual(seedLines('FEES'));
  });

  it('keeps the held set when the offered one is older, unless forced', async () => {
    const stale = shiftedSet(
      seedLines('Norbi'),
      (seedSets.get('Norbi')?.tleEpoch ?? 0) - 24 * HOUR,
      45,
    );
    sources.serve(GROUP_TLE, { body: celestrakTle([stale]), etag: '"old"' });
    const report = await refresh([GROUP_TLE]);
    expect(report.updated).toEqual([]);
    expect(report.rejected).toEqual([
      expect.objectContaining({
        satellite: 'Norbi',
        reason: expect.stringMatching(/older than the held/),
      }),
    ]);
    expect((await held('Norbi')).tle).toEqual(seedLines('Norbi'));

    const forced = await refresh([GROUP_TLE], { force: true });
    // Forced: asked unconditionally, and the older set is taken.
    expect(sources.requests.at(-1)?.headers['if-none-match']).toBeUndefined();
    expect(forced.updated.map((u) => u.satellite)).toEqual(['Norbi']);
    expect((await held('Norbi')).tle).toEqual(stale.lines);
  });

  it('refuses sets with a bad checksum, a mismatched NORAD id or an orbit SGP4 cannot run', async () => {
    const good = newerSet('Norbi');
    const badChecksum: Lines = [
      good.lines[0],
      good.lines[1],
      `${good.lines[2].slice(0, 68)}${(Number(good.lines[2][68]) + 1) % 10}`,
    ];
    const decayed = shiftedSet(seedLines('FEES'), Date.now() - HOUR, 0);
    decayed.elements.meanMotionRevPerDay = 16.49;
    decayed.elements.bstar = 0.9;
    const { makeTleLines } = await import('@tinygs/orbit');
    decayed.lines = makeTleLines(decayed.elements);
    const satlla = newerSet('SATLLA-2B');
    sources.serve(GROUP_TLE, {
      body: celestrakTle([{ ...good, lines: badChecksum }, decayed]),
    });
    // SatNOGS record whose norad_cat_id names another satellite than its lines.
    const mismatched = JSON.parse(satnogsTle([satlla])) as Record<string, unknown>[];
    mismatched[0]!.norad_cat_id = 46494;
    sources.serve(SATNOGS_TLE, {
      body: JSON.stringify(mismatched),
      contentType: 'application/json',
    });

    const report = await refresh([GROUP_TLE, SATNOGS_TLE]);
    expect(report.updated).toEqual([]);
    const reasons = Object.fromEntries(report.rejected.map((r) => [r.satellite, r.reason]));
    expect(reasons.FEES).toMatch(/SGP4/);
    expect(report.rejected).toContainEqual(
      expect.objectContaining({ satellite: 'Norbi', reason: expect.stringMatching(/checksum/) }),
    );
    expect(report.rejected).toContainEqual(
      expect.objectContaining({
        norad: 46494,
        reason: expect.stringMatching(/norad_cat_id 46494/),
      }),
    );
    for (const name of ['Norbi', 'FEES', 'SATLLA-2B'])
      expect((await held(name)).tle).toEqual(seedLines(name));
  });

  it('keeps every held set when sources fail: HTTP error, no answer, too large, not a set document', async () => {
    sources.serve('/error', { status: 503, body: 'Service Unavailable' });
    sources.serve('/hang', { hang: true });
    sources.serve('/declared', { declaredLength: 2 * 1024 * 1024 });
    sources.serve('/stream', { streamBytes: 4 * 1024 * 1024 });
    sources.serve('/junk', { body: '{"detail":"Not found."}', contentType: 'application/json' });
    const report = await refresh([
      '/error',
      '/declared',
      '/stream',
      '/junk',
      pathToFileURL(join(REPO_ROOT, 'no-such-file.tle')).href,
    ]);
    expect(report.ok).toBe(false);
    const errors = report.sources.map((s) => [s.failed, s.errors[0] ?? '']);
    expect(errors).toEqual([
      [1, expect.stringMatching(/HTTP 503/)],
      [1, expect.stringMatching(/over the \d+-byte limit/)],
      [1, expect.stringMatching(/over the \d+-byte limit/)],
      [1, expect.stringMatching(/neither OMM .* nor SatNOGS/)],
      [1, expect.stringMatching(/not found/)],
    ]);
    const silent = await refresh(['/hang'], {}, 1000);
    expect(silent.sources[0]?.errors).toEqual([expect.stringMatching(/no answer within 1000 ms/)]);
    const rows = await server.ctx.database.db
      .selectFrom('satellites')
      .select(['name', 'tle'])
      .execute();
    for (const r of rows) expect(r.tle, r.name).toBe(seedSets.get(r.name)?.tle);
    const states = await server.ctx.database.db
      .selectFrom('elementSetSources')
      .selectAll()
      .execute();
    expect(states).toHaveLength(6);
    expect(silent.ok).toBe(false);
    for (const s of states) expect(s.error).toBeTruthy();
  });

  it(
    'reads a file source and runs from the CLI with --json',
    async () => {
      const next = newerSet('Polytech_Universe-1');
      const { writeFileSync, mkdtempSync } = await import('node:fs');
      const dir = mkdtempSync(join(server.ctx.config.dataDir, 'tles-'));
      const file = join(dir, 'sets.txt');
      writeFileSync(file, celestrakTle([next]).replace(/\r\n/g, '\n'));
      const first = await runCli(
        ['satellites', 'refresh-tles', '--json'],
        cliEnvironment(server.ctx.config, { TLE_SOURCES: pathToFileURL(file).href }),
      );
      expect(first.code).toBe(0);
      const body = JSON.parse(first.stdout) as {
        ok: boolean;
        updated: { satellite: string; source: string }[];
      };
      expect(body.ok).toBe(true);
      expect(body.updated).toEqual([
        expect.objectContaining({ satellite: 'Polytech_Universe-1', source: 'file:sets.txt' }),
      ]);
      expect((await held('Polytech_Universe-1')).tle).toEqual(next.lines);
      // The file has not changed: it is not read again.
      const second = await refresh([pathToFileURL(file).href]);
      expect(second.sources[0]).toMatchObject({ notModified: 1, fetched: 0 });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it('starts without waiting for a source, then refreshes on schedule', async () => {
    const next = newerSet('FossaSat-2E11');
    sources.serve('/slow', { hang: true });
    sources.serve(GROUP_TLE, { body: celestrakTle([next]) });
    const scheduled = await startTestServer(dialect, {
      env: {
        TLE_SOURCES: `${sources.url}/slow ${sources.url}${GROUP_TLE}`,
        TLE_FETCH_TIMEOUT_MS: '3000',
      },
      parts: [
        createNetworkPart({ catalogueRefreshMs: 600_000 }),
        createElementSetsPart({ firstRunAfterMs: 0 }),
      ],
    });
    const setOf = async () =>
      (
        await scheduled.ctx.database.db
          .selectFrom('satellites')
          .select('tle')
          .where('name', '=', 'FossaSat-2E11')
          .executeTakeFirstOrThrow()
      ).tle;
    try {
      const deadline = Date.now() + 15_000;
      while (!sources.requests.some((r) => r.path === '/slow') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      // The source is still silent, and the server answers.
      const map = await scheduled.app.inject({ url: '/v1/satellitesWorldmap' });
      expect(map.statusCode).toBe(200);
      expect(await setOf()).toBe(seedSets.get('FossaSat-2E11')?.tle);
      while (Date.now() < deadline && (await setOf()) !== JSON.stringify(next.lines))
        await new Promise((r) => setTimeout(r, 100));
      expect(await setOf()).toBe(JSON.stringify(next.lines));
      // The ingest's in-memory catalogue moved with it (its own reload is ten minutes away).
      const inMemory = () =>
        scheduled.ctx.services.network?.catalogue.find('FossaSat-2E11', null)?.tle?.line1;
      while (Date.now() < deadline && inMemory() !== next.lines[1])
        await new Promise((r) => setTimeout(r, 50));
      expect(inMemory()).toBe(next.lines[1]);
    } finally {
      await scheduled.stop();
    }
  }, 30_000);
});
