import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefetchWorldData, takeEarlyAnswer, type WorldAnswers } from './worldRequests';

const KEYS: (keyof WorldAnswers)[] = ['satellites', 'tles', 'stations'];

function answering() {
  let n = 0;
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    n += 1;
    const url = String(input);
    const body = url.endsWith('.txt') ? `tles ${n}` : JSON.stringify([{ n }]);
    const type = url.endsWith('.txt') ? 'text/plain' : 'application/json';
    return Promise.resolve(new Response(body, { headers: { 'content-type': type } }));
  });
}

describe('world map data asked for at start-up', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    // Whatever a test left asked for early is taken, so the next starts clean.
    for (const key of KEYS) takeEarlyAnswer(key)?.catch(() => undefined);
  });

  it('asks once for the three answers, and the first map takes each once', async () => {
    const fetch = answering();
    prefetchWorldData();
    prefetchWorldData();
    expect(fetch.mock.calls.map(([url]) => String(url)).sort()).toEqual([
      '/v1/satellitesWorldmap',
      '/v1/stations',
      '/v1/tles.txt',
    ]);
    expect(await takeEarlyAnswer('tles')).toMatch(/^tles \d$/);
    expect(await takeEarlyAnswer('stations')).toHaveLength(1);
    expect(takeEarlyAnswer('tles')).toBeNull();
    expect(await takeEarlyAnswer('satellites')).toHaveLength(1);
    // Once all three are taken, a later visit's start asks again.
    prefetchWorldData();
    expect(fetch).toHaveBeenCalledTimes(6);
  });

  it('does not hand over answers asked for more than a minute before', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    answering();
    prefetchWorldData();
    vi.setSystemTime(Date.now() + 61_000);
    for (const key of KEYS) expect(takeEarlyAnswer(key)).toBeNull();
  });

  it('leaves a failed early request to the map that takes it', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('offline'));
    prefetchWorldData();
    // Failed before any map took them: nothing reported yet.
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
    await expect(takeEarlyAnswer('stations')).rejects.toThrow('offline');
    await expect(takeEarlyAnswer('satellites')).rejects.toThrow('offline');
    await expect(takeEarlyAnswer('tles')).rejects.toThrow('offline');
  });
});
