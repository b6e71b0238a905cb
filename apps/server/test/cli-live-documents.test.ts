// Issue 10 from the operator's side: the CLI decodes live-API packet documents exactly as the live
// network did, and imports them as history that the public API then serves.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { differences } from '../../../packages/decoders/test/json-compare';
import { REPO_ROOT } from '../src/config';
import { CLI_TEST_TIMEOUT_MS, cliEnvironment, runCli } from './cli-process';
import { DIALECTS, startTestServer, type TestServer } from './harness';

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT_MS });
const LIVE_DIR = join(REPO_ROOT, 'fixtures/live-packets-2022');
const DOCS = readdirSync(LIVE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

interface LivePacket {
  id: string;
  raw: string;
  satellite: string;
  parsed?: unknown;
}
const readDoc = (file: string) =>
  JSON.parse(readFileSync(join(LIVE_DIR, file), 'utf8')) as { packets: LivePacket[] };

const cli = (server: TestServer, args: string[]) => runCli(args, cliEnvironment(server.ctx.config));

describe('decode from the command line', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(DOCS)(
    'decode --file %s reproduces every captured parsed object in order',
    async (file) => {
      const doc = readDoc(file);
      const res = await cli(server, ['decode', '--file', join(LIVE_DIR, file), '--json']);
      expect(res.code, res.stderr).toBe(0);
      const out = JSON.parse(res.stdout) as { id: string; parsed: unknown }[];
      expect(out.map((o) => o.id)).toEqual(doc.packets.map((p) => p.id));
      const mismatches = out.flatMap((o, i) =>
        differences(o.parsed, doc.packets[i]?.parsed ?? null, o.id),
      );
      expect(mismatches).toEqual([]);
    },
  );

  it('decode --satellite --raw prints {"parsed": ...} and null for noise', async () => {
    const packet = readDoc(DOCS[0] as string).packets[0] as LivePacket;
    const ok = await cli(server, [
      'decode',
      '--satellite',
      packet.satellite,
      '--raw',
      packet.raw,
      '--json',
    ]);
    expect(differences(JSON.parse(ok.stdout).parsed, packet.parsed)).toEqual([]);
    const noise = await cli(server, [
      'decode',
      '--satellite',
      packet.satellite,
      '--raw',
      'AAEC',
      '--json',
    ]);
    expect(JSON.parse(noise.stdout)).toEqual({ parsed: null });
  });

  it('refuses a decode call without a frame or a file', async () => {
    const res = await cli(server, ['decode', '--satellite', 'Norbi', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).error).toMatch(/--file|--raw/);
  });
});

describe.each(DIALECTS)('packets import on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('stores a live document as decoded history once, however often it is imported', async () => {
    const file = join(LIVE_DIR, DOCS[1] as string);
    const doc = readDoc(DOCS[1] as string);
    const first = await cli(server, ['packets', 'import', file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ imported: doc.packets.length, skipped: 0 });
    const again = await cli(server, ['packets', 'import', file, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, skipped: doc.packets.length });

    const db = server.ctx.database.db;
    const rows = await db
      .selectFrom('packets')
      .select(['id', 'parsed', 'historical', 'serverTime'])
      .execute();
    expect(rows).toHaveLength(doc.packets.length);
    const sample = doc.packets[0] as LivePacket & { serverTime: number };
    const stored = rows.find((r) => r.id === sample.id);
    expect(stored?.historical).toBe(1);
    expect(stored?.serverTime).toBe(sample.serverTime);
    expect(differences(JSON.parse(stored?.parsed ?? 'null'), sample.parsed)).toEqual([]);
    const counter = await db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'packets')
      .executeTakeFirst();
    expect(counter?.value).toBe(doc.packets.length);
  });

  it('stores the frames that fail their checks as unverified, with the envelope only', async () => {
    // packets-05.json holds the two frames of noise filed under Polytech_Universe-1.
    const noise = ['16474589-4aba-4aab-b70f-e8d69fb0b68a', '5b567c15-23b6-4a77-82c9-a65f7958ed33'];
    const res = await cli(server, [
      'packets',
      'import',
      join(LIVE_DIR, 'packets-05.json'),
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const rows = await server.ctx.database.db
      .selectFrom('packets')
      .select(['id', 'parsed', 'txPowerMw'])
      .where('unverified', '=', 1)
      .execute();
    expect(rows.map((r) => r.id).sort()).toEqual(noise.sort());
    for (const row of rows) {
      expect(JSON.parse(row.parsed ?? 'null')).toEqual({
        payload: { tinygsSatellite: 'Polytech_Universe-1', tinygsTxPower: 800 },
        tinygsSatellite: 'Polytech_Universe-1',
        telemetry: false,
      });
      expect(row.txPowerMw).toBe(800);
    }
  });

  it('names the problem in a file that is not a packets document', async () => {
    const res = await cli(server, ['packets', 'import', join(REPO_ROOT, 'package.json'), '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).error).toMatch(/not a packets document/);
  });
});
