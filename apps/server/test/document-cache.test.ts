// The kept documents under a stream of events: a quiet cache answers the first request after an
// event with a fresh build; a busy one (events faster than its rebuild interval) keeps answering at
// once from the newest build while at most one rebuild per interval runs behind it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocumentCache } from '../src/public-api/document-cache';

describe('DocumentCache with a rebuild interval', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A build that counts its calls and answers the count. */
  function counter() {
    let builds = 0;
    const build = async () => {
      builds += 1;
      return builds;
    };
    return { build, count: () => builds };
  }

  it('answers the first request after a quiet spell with a fresh build', async () => {
    const cache = new DocumentCache<string, number>(60_000, 10, { minRebuildMs: 1_000 });
    const { build, count } = counter();
    expect(await cache.get('k', build)).toBe(1);
    vi.advanceTimersByTime(1_500);
    cache.invalidate('k');
    expect(await cache.get('k', build)).toBe(2);
    expect(count()).toBe(2);
  });

  it('serves the newest build at once while events come faster than the interval, rebuilding once per interval', async () => {
    const cache = new DocumentCache<string, number>(60_000, 10, { minRebuildMs: 1_000 });
    const { build, count } = counter();
    expect(await cache.get('k', build)).toBe(1);
    // Ten events and requests within the interval: the kept document, and no build yet.
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(50);
      cache.invalidate('k');
      expect(await cache.get('k', build)).toBe(1);
    }
    expect(count()).toBe(1);
    // The interval passes: one rebuild runs, and its document is served although events went on.
    await vi.advanceTimersByTimeAsync(600);
    expect(count()).toBe(2);
    cache.invalidate('k');
    expect(await cache.get('k', build)).toBe(2);
    // Five seconds of events every 50 ms with requests between them: about one build a second.
    for (let i = 0; i < 100; i++) {
      await vi.advanceTimersByTimeAsync(50);
      cache.invalidate('k');
      await cache.get('k', build);
    }
    expect(count()).toBeGreaterThanOrEqual(5);
    expect(count()).toBeLessThanOrEqual(8);
    expect(await cache.get('k', build)).toBe(count());
  });

  it('keeps a build that an event overtook, so a cache dropped faster than it builds still moves on', async () => {
    const cache = new DocumentCache<string, number>(60_000, 10, { minRebuildMs: 1_000 });
    let builds = 0;
    const slowBuild = async () => {
      builds += 1;
      const value = builds;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return value;
    };
    const first = cache.get('k', slowBuild);
    await vi.advanceTimersByTimeAsync(200);
    expect(await first).toBe(1);
    // An event every 50 ms, each build takes 200 ms: every build is overtaken before it ends.
    let served = 0;
    for (let i = 0; i < 100; i++) {
      cache.invalidate('k');
      void cache.get('k', slowBuild).then((value) => {
        served = Math.max(served, value);
      });
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(builds).toBeGreaterThanOrEqual(3);
    expect(served).toBeGreaterThan(1);
  });

  it('without an interval, waits for a fresh build after every event', async () => {
    const cache = new DocumentCache<string, number>(60_000, 10);
    const { build, count } = counter();
    expect(await cache.get('k', build)).toBe(1);
    for (let i = 2; i <= 5; i++) {
      cache.invalidate('k');
      expect(await cache.get('k', build)).toBe(i);
    }
    expect(count()).toBe(5);
  });
});

describe('DocumentCache past the TTL', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers entries past their TTL at once and refreshes them behind, a few at a time', async () => {
    const cache = new DocumentCache<number, string>(60_000, 1_000, { maxRefreshes: 3 });
    let running = 0;
    let most = 0;
    let builds = 0;
    const build = (key: number, round: string) => async () => {
      builds += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running -= 1;
      return `${key} ${round}`;
    };
    // A burst of first requests: a hundred entries built together...
    await Promise.all(
      Array.from({ length: 100 }, (_, k) => {
        const first = cache.get(k, build(k, 'first'));
        return vi.advanceTimersByTimeAsync(10).then(() => first);
      }),
    );
    expect(builds).toBe(100);
    most = 0;
    // ...expire together: each is still answered at once, by get and by peek with a refresh.
    vi.advanceTimersByTime(60_001);
    for (let k = 0; k < 100; k++) {
      const answer =
        k % 2 === 0 ? cache.peek(k, build(k, 'second')) : await cache.get(k, build(k, 'second'));
      expect(answer).toBe(`${k} first`);
    }
    // Without a way to refresh it, peek leaves an entry past its TTL to get.
    expect(cache.peek(0)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(builds).toBe(200);
    expect(most).toBe(3);
    for (let k = 0; k < 100; k++) expect(cache.peek(k)).toBe(`${k} second`);
  });

  it('skips a refresh that an event made needless while it waited', async () => {
    const cache = new DocumentCache<number, number>(60_000, 10, { maxRefreshes: 1 });
    let builds = 0;
    const build = async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return builds;
    };
    for (const k of [1, 2]) {
      const first = cache.get(k, build);
      await vi.advanceTimersByTimeAsync(10);
      await first;
    }
    vi.advanceTimersByTime(60_001);
    expect(cache.peek(1, build)).toBe(1);
    expect(cache.peek(2, build)).toBe(2);
    // Entry 2 is dropped while entry 1's refresh runs: the next request for it builds it afresh.
    cache.invalidate(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(builds).toBe(3);
    expect(cache.peek(2, build)).toBeUndefined();
  });

  it('refreshes entries past their TTL a batch per build with refreshMany, leaving out what the build leaves out', async () => {
    let running = 0;
    let most = 0;
    const batches: number[] = [];
    const cache = new DocumentCache<number, string>(60_000, 1_000, {
      maxRefreshes: 2,
      refreshMany: {
        size: 30,
        build: async (keys) => {
          batches.push(keys.length);
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 10));
          running -= 1;
          // Key 7 is gone: its entry stays as it was.
          return new Map(keys.filter((k) => k !== 7).map((k) => [k, `${k} refreshed`]));
        },
      },
    });
    for (let k = 0; k < 100; k++) await cache.get(k, async () => `${k} first`);
    vi.advanceTimersByTime(60_001);
    const single = async () => 'built alone';
    for (let k = 0; k < 100; k++) expect(cache.peek(k, single)).toBe(`${k} first`);
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toEqual([30, 30, 30, 10]);
    expect(most).toBe(2);
    expect(cache.peek(8)).toBe('8 refreshed');
    expect(cache.peek(99)).toBe('99 refreshed');
    expect(cache.peek(7, single)).toBe('7 first');
  });
});
