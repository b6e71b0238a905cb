import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/fetchMock';

// The world map's code (Leaflet, the outline, the layers) stands in as a module whose loading the
// test can see: its factory runs when something imports it.
const worldMapModule = vi.hoisted(() => ({ loads: 0 }));
vi.mock('../features/map/components/WorldMap', () => {
  worldMapModule.loads += 1;
  return { default: () => null };
});

/** Evaluates boot.ts as the entry chunk does on a first visit of `path`, before React renders. */
async function startAt(path: string) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  worldMapModule.loads = 0;
  // Answered, so that no retry of a failed request lands in a later test.
  const calls = mockFetch({
    '/v1/statistics': { body: { members: 1, stations: 1, packets: 1 } },
    '/v1/satellitesWorldmap': { body: [] },
    '/v1/tles.txt': { body: '' },
    '/v1/stations': { body: [] },
  });
  await import('./boot');
  return calls;
}

describe('start-up of the app', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('asks for what / shows, and for the map code, before the first render', async () => {
    const calls = await startAt('/');
    // Asked for while the module ran: no render, no effect has happened.
    expect(calls.map((c) => c.url).sort()).toEqual([
      '/v1/satellitesWorldmap',
      '/v1/stations',
      '/v1/statistics',
      '/v1/tles.txt',
    ]);
    await vi.waitFor(() => expect(worldMapModule.loads).toBe(1));
  });

  it('asks for none of it on another screen', async () => {
    const calls = await startAt('/stations');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([]);
    expect(worldMapModule.loads).toBe(0);
  });
});
