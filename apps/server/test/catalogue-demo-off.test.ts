// DEMO=0, a real deployment: the catalogue is seeded with the real satellites only, without the
// made-up element sets of the demo, and no simulated station runs, whatever SIMULATED_STATIONS says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../src/cli/commands';
import { simulatorPart } from '../src/simulator/part';
import { createNetworkPart } from '../src/network/part';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const REAL = [
  'FEES',
  'FossaSat-2E1',
  'FossaSat-2E11',
  'FossaSat-2E12',
  'FossaSat-2E8',
  'Norbi',
  'Polytech_Universe-1',
  'SATLLA-2B',
];

describe.each(DIALECTS)('DEMO=0 on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      env: { DEMO: '0', SIMULATED_STATIONS: '50' },
      parts: [createNetworkPart(), simulatorPart],
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const names = async (url: string) =>
    ((await server.app.inject({ url })).json() as { name: string }[]).map((s) => s.name).sort();

  it('serves only the real satellites, without element sets until a refresh brings them', async () => {
    expect(
      [...(await names('/v1/satellites')), ...(await names('/v1/satellitesIna'))].sort(),
    ).toEqual(REAL);
    const map = (await server.app.inject({ url: '/v1/satellitesWorldmap' })).json() as {
      tleMissing: boolean;
    }[];
    expect(map).toHaveLength(REAL.length);
    expect(map.every((s) => s.tleMissing)).toBe(true);
    expect((await server.app.inject({ url: '/v1/tles.txt' })).body).toBe('');
    const norbi = (await server.app.inject({ url: '/v1/satellite/Norbi' })).json();
    expect(norbi).toMatchObject({ tle: null, tleEpoch: null });
    expect(norbi.webTemplate).toMatch(/\S/);
  });

  it('runs no simulated station', async () => {
    expect(server.ctx.config.simulatedStations).toBe(0);
    const stations = (await server.app.inject({ url: '/v1/stations' })).json() as unknown[];
    expect(stations).toEqual([]);
  });

  it('seeds the same real-only catalogue from the CLI', async () => {
    await server.ctx.database.db.deleteFrom('satellites').execute();
    const out = await runCommand(server.ctx, { command: 'seed' });
    expect(out.json).toEqual({ satellites: REAL.length });
    expect(await names('/v1/satellites')).toEqual(REAL);
  });
});

describe('with the demo (default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('seeds the invented satellites beside the real ones, with element sets', async () => {
    const list = (await server.app.inject({ url: '/v1/satellites' })).json() as {
      name: string;
      tleSource?: string | null;
    }[];
    expect(list.length).toBeGreaterThan(40);
    expect(list.map((s) => s.name)).toEqual(expect.arrayContaining(['Norbi', 'Avocet']));
    expect(list.find((s) => s.name === 'Norbi')?.tleSource).toBe('seed');
    expect(server.ctx.config.simulatedStations).toBe(0); // the harness turns it off itself
  });
});
