// Catalogue import from SatNOGS DB documents (fixtures/satnogs-db, in the shapes its API answers):
// LoRa/FSK satellites are created with their configurations and statuses, existing entries keep
// the operator's edits, a second run changes nothing; the same from a local server speaking the
// SatNOGS DB API (--url form); bad documents are refused with a message.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { fetchSatnogs, importSatnogs } from '../src/importer/satnogs-db';
import { CLI_TEST_TIMEOUT_MS, cliEnvironment, runCli } from './cli-process';
import { startSourceServer, type SourceServer } from './element-sources';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const FIXTURES = join(REPO_ROOT, 'fixtures/satnogs-db');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

interface Sat {
  name: string;
  displayName: string;
  status: string;
  description: string;
  longDescription: string;
  images: string[];
  configurations: Record<string, unknown>[];
  tleSource?: string | null;
  launchDate: number | null;
}

describe.each(DIALECTS)('SatNOGS DB import on %s', (dialect) => {
  let server: TestServer;
  let satnogs: SourceServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    satnogs = await startSourceServer();
  });
  afterAll(async () => {
    await server?.stop();
    await satnogs?.close();
  });

  const db = () => server.ctx.database.db;
  async function satellite(name: string): Promise<Sat> {
    const res = await server.app.inject({ url: `/v1/satellite/${encodeURIComponent(name)}` });
    expect(res.statusCode, name).toBe(200);
    return res.json() as Sat;
  }
  const snapshot = () => db().selectFrom('satellites').selectAll().orderBy('name').execute();

  it(
    'creates the LoRa/FSK satellites, updates statuses, keeps operator edits; a second run changes nothing',
    async () => {
      // Operator edits made before the import.
      await db()
        .updateTable('satellites')
        .set({
          displayName: 'Norby (NSU)',
          description: 'Edited by the operator.',
          webTemplate: '<p>{{ p.batteryVolts }}</p>',
          status: 'SupportedSL',
        })
        .where('name', '=', 'Norbi')
        .execute();
      await db()
        .updateTable('satellites')
        .set({ longDescription: '<p>Our notes on FEES.</p>' })
        .where('name', '=', 'FEES')
        .execute();

      const args = [
        'satellites',
        'import-satnogs',
        '--satellites',
        join(FIXTURES, 'satellites.json'),
        '--transmitters',
        join(FIXTURES, 'transmitters.json'),
        '--tle',
        join(FIXTURES, 'tle.json'),
        '--json',
      ];
      const first = await runCli(args, cliEnvironment(server.ctx.config));
      expect(first.code, first.stderr).toBe(0);
      const report = JSON.parse(first.stdout);
      expect(report).toMatchObject({
        satellites: 8,
        transmitters: 13,
        // NORBI, FOSSASAT-2E11, GREENCUBE, UVSQ-SAT, FEES, LORALINK-1 (not the ISS: FM and AFSK;
        // not QO-100: FSK at 10 GHz)
        candidates: 6,
        changed: true,
      });
      expect(report.created).toEqual([
        { name: 'GREENCUBE', norad: 53106, status: 'Supported', configurations: 1 },
        { name: 'UVSQ-SAT', norad: 47438, status: 'Supported', configurations: 1 },
        { name: 'LORALINK-1', norad: 99487, status: 'Future', configurations: 1 },
      ]);
      expect(report.updated).toEqual(
        expect.arrayContaining([
          { name: 'FossaSat-2E11', norad: 52750, changed: ['status'] },
          { name: 'FEES', norad: 48082, changed: expect.arrayContaining(['status']) },
        ]),
      );
      expect(
        report.elementSets.updated.map((u: { satellite: string }) => u.satellite).sort(),
      ).toEqual(['GREENCUBE', 'Norbi', 'UVSQ-SAT']);

      // Configurations from the transmitters: FSK baud -> br (kbps), GMSK deviation baud/4, LoRa
      // settings named in the description; Hz -> MHz.
      expect((await satellite('GREENCUBE')).configurations).toEqual([
        { mode: 'FSK', freq: 435.31, br: 1.2, sat: 'GREENCUBE', NORAD: 53106 },
      ]);
      const uvsq = await satellite('UVSQ-SAT');
      expect(uvsq.configurations).toEqual([
        { mode: 'FSK', freq: 437.02, br: 9.6, fd: 2.4, sat: 'UVSQ-SAT', NORAD: 47438 },
      ]);
      expect(uvsq.images).toEqual([
        'https://db-satnogs.freetls.fastly.net/media/satellites/uvsq-sat.jpg',
      ]);
      expect(uvsq.tleSource).toBe('satnogs-db');
      expect(uvsq.launchDate).toBe(Date.parse('2021-01-24T15:00:00Z'));
      const future = await server.app.inject({ url: '/v1/satellites?status=Future' });
      expect(future.json()).toContainEqual(
        expect.objectContaining({
          name: 'LORALINK-1',
          configurations: [
            { mode: 'LoRa', freq: 868.4, sf: 12, bw: 125, cr: 5, sat: 'LORALINK-1', NORAD: 99487 },
          ],
        }),
      );
      // dead and re-entered -> Inactive.
      const inactive = (await server.app.inject({ url: '/v1/satellitesIna' })).json() as Sat[];
      expect(inactive.map((s) => s.name)).toEqual(
        expect.arrayContaining(['FEES', 'FossaSat-2E11']),
      );
      // Not imported: no LoRa/FSK downlink the stations receive.
      for (const name of ['ISS', 'QO-100']) {
        const res = await server.app.inject({ url: `/v1/satellite/${name}` });
        expect(res.statusCode).toBe(404);
      }

      // The operator's edits are still there.
      const norbi = await satellite('Norbi');
      expect(norbi).toMatchObject({
        displayName: 'Norby (NSU)',
        description: 'Edited by the operator.',
        webTemplate: '<p>{{ p.batteryVolts }}</p>',
        status: 'SupportedSL',
      });
      expect(norbi.configurations).toHaveLength(1);
      expect(norbi.configurations[0]).toMatchObject({ sf: 10, bw: 250, sw: 18 });
      expect((await satellite('FEES')).longDescription).toBe('<p>Our notes on FEES.</p>');

      const before = await snapshot();
      // Second run (as a person reads it): nothing to do, and nothing changes.
      const second = await runCli(args.slice(0, -1), cliEnvironment(server.ctx.config));
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/Nothing changed/);
      expect(await snapshot()).toEqual(before);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it('fetches the same documents from a SatNOGS DB base URL (relative image paths under /media/)', async () => {
    const satellites = JSON.parse(fixture('satellites.json')) as Record<string, unknown>[];
    // A satellite this deployment does not have yet, with a relative image path.
    const extra = {
      ...satellites.find((s) => s.name === 'GREENCUBE'),
      sat_id: 'QWER-1111-2222-3333-4444',
      norad_cat_id: 61234,
      name: 'LORA STAR 2',
      image: 'satellites/lora-star-2.png',
    };
    const transmitters = JSON.parse(fixture('transmitters.json')) as Record<string, unknown>[];
    const extraTx = {
      ...transmitters[0],
      uuid: 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3S',
      sat_id: extra.sat_id,
      norad_cat_id: 61234,
      downlink_low: 2403000000,
      description: 'LoRa 2.4 GHz SF8 BW812.5 CR4/9',
    };
    const json = { contentType: 'application/json' };
    satnogs.serve('/api/satellites/?format=json', {
      ...json,
      body: JSON.stringify([...satellites, extra]),
    });
    satnogs.serve('/api/transmitters/?format=json', {
      ...json,
      body: JSON.stringify([...transmitters, extraTx]),
    });
    satnogs.serve('/api/tle/?format=json', { ...json, body: fixture('tle.json') });

    const documents = await fetchSatnogs(`${satnogs.url}/`, {
      timeoutMs: 5_000,
      userAgent: 'test',
    });
    const report = await importSatnogs(server.ctx, documents);
    expect(report.created).toEqual([
      { name: 'LORA-STAR-2', norad: 61234, status: 'Supported', configurations: 1 },
    ]);
    const sat = await satellite('LORA-STAR-2');
    expect(sat.displayName).toBe('LORA STAR 2');
    expect(sat.images).toEqual([`${satnogs.url}/media/satellites/lora-star-2.png`]);
    // CR 4/9 does not exist: left out; the SX128x bandwidth is kept.
    expect(sat.configurations).toEqual([
      { mode: 'LoRa', freq: 2403, sf: 8, bw: 812.5, sat: 'LORA-STAR-2', NORAD: 61234 },
    ]);
    expect((await importSatnogs(server.ctx, documents)).changed).toBe(false);
  });

  it(
    'refuses documents that are not SatNOGS DB lists and skips malformed records',
    async () => {
      await expect(
        importSatnogs(server.ctx, { satellites: { detail: 'Not found.' }, transmitters: [] }),
      ).rejects.toThrow(/satellites is not a JSON array/);
      await expect(
        importSatnogs(server.ctx, {
          satellites: Array.from({ length: 50_001 }, () => ({})),
          transmitters: [],
        }),
      ).rejects.toThrow(/more than 50000/);
      await expect(
        importSatnogs(server.ctx, {
          satellites: [],
          transmitters: [],
          tle: '[{"OBJECT_NAME":"X","NORAD_CAT_ID":1}]',
        }),
      ).rejects.toThrow(/not a SatNOGS DB \/api\/tle\//);
      const report = await importSatnogs(server.ctx, {
        satellites: [{ name: 'x'.repeat(5000), status: 'alive' }, 'junk'],
        transmitters: [{ uuid: 42 }],
      });
      expect(report.skipped.invalidRecords).toBe(3);
      expect(report.changed).toBe(false);

      const missing = await runCli(
        [
          'satellites',
          'import-satnogs',
          '--satellites',
          join(FIXTURES, 'nope.json'),
          '--transmitters',
          join(FIXTURES, 'transmitters.json'),
          '--json',
        ],
        cliEnvironment(server.ctx.config),
      );
      expect(missing.code).toBe(1);
      expect(JSON.parse(missing.stdout).error).toMatch(/File not found/);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
