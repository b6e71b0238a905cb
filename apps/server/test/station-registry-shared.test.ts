// Shared ingest: an instance asks storage about a station it has not heard of (its welcome may
// have gone to another instance), and a client inventing station names cannot turn that into
// unbounded reads.
import { describe, expect, it } from 'vitest';
import type { BatchWriter } from '../src/network/ingest/batch-writer';
import { StationRegistry, type StoredStations } from '../src/network/station-registry';

/** Storage with the given stations; counts the reads and can hold them until released. */
function storage(ids: string[], hold = false) {
  const reads: string[] = [];
  const waiting: (() => void)[] = [];
  const stored: StoredStations = {
    async find(id) {
      reads.push(id);
      if (hold) await new Promise<void>((r) => waiting.push(r));
      return ids.includes(id) ? { online: true } : null;
    },
  };
  return { stored, reads, release: () => waiting.splice(0).forEach((r) => r()) };
}

// The writer only receives the registry's writes; confirming a station writes nothing.
const writer = { enqueue: () => null } as unknown as BatchWriter;
const registry = (stored: StoredStations, shared = true) =>
  new StationRegistry(writer, undefined, Date.now, shared, stored);

describe('a shared-ingest station registry asking storage', () => {
  it('knows a station another instance created, after one read', async () => {
    const s = storage(['North_GS@42']);
    const r = registry(s.stored);
    expect(r.isKnown('North_GS@42')).toBe(false);
    expect(await r.confirm('North_GS@42')).toBe(true);
    expect(r.isKnown('North_GS@42')).toBe(true);
    expect(r.isOnline('North_GS@42')).toBe(true);
    expect(r.confirm('North_GS@42')).toBe(true);
    expect(s.reads).toEqual(['North_GS@42']);
  });

  it('reads once for copies that arrive together, and not again for a name storage lacks', async () => {
    const s = storage([], true);
    const r = registry(s.stored);
    const first = r.confirm('Ghost_GS@42');
    const second = r.confirm('Ghost_GS@42');
    s.release();
    expect(await first).toBe(false);
    expect(await second).toBe(false);
    expect(r.confirm('Ghost_GS@42')).toBe(false);
    expect(s.reads).toEqual(['Ghost_GS@42']);
  });

  it('refuses invented names past a bounded number of reads at once', async () => {
    const s = storage([], true);
    const r = registry(s.stored);
    const answers = Array.from({ length: 500 }, (_, i) => r.confirm(`Fake${i}_GS@42`));
    expect(s.reads.length).toBeLessThanOrEqual(64);
    expect(answers.filter((a) => a === false).length).toBe(500 - s.reads.length);
    s.release();
    expect(await Promise.all(answers)).toEqual(answers.map(() => false));
  });

  it('never asks storage with its own broker (the registry is the whole truth there)', () => {
    const s = storage(['North_GS@42']);
    expect(registry(s.stored, false).confirm('North_GS@42')).toBe(false);
    expect(s.reads).toEqual([]);
  });
});
