import { createHash } from 'node:crypto';
import { formatStationId, stationListDigestText, type StationListItem } from '@tinygs/contracts';
import { describe, expect, it, vi } from 'vitest';
import { StationListReducer, type StationDelta } from './stationList';

const station = (name: string, over: Partial<StationListItem> = {}): StationListItem => ({
  name,
  userId: '7',
  location: [40, -3],
  status: 1,
  lastSeen: 1,
  lastPacketTime: null,
  version: 1,
  satellite: null,
  autoTune: null,
  ...over,
});
const idOf = (s: StationListItem) => formatStationId(s.name, s.userId);
const byId = (list: readonly StationListItem[]) =>
  [...list].sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));

/** The markers layer's view: what StationMarkers.update / applyDelta leave drawn. */
class Drawn {
  readonly stations = new Map<string, StationListItem>();
  update(list: readonly StationListItem[]): void {
    this.stations.clear();
    for (const s of list) this.stations.set(idOf(s), s);
  }
  applyDelta(delta: StationDelta): void {
    for (const s of delta.changed) this.stations.set(idOf(s), s);
    for (const id of delta.removed) this.stations.delete(id);
  }
  list(): StationListItem[] {
    return byId([...this.stations.values()]);
  }
}

const full = (seq: number, list: StationListItem[]) =>
  JSON.stringify({ seq, full: true, changed: list, removed: [] });
const delta = (seq: number, changed: StationListItem[], removed: string[] = []) =>
  JSON.stringify({ seq, full: false, changed, removed });

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the live station list from stations-delta events', () => {
  it('draws exactly what the full list of each version draws', () => {
    const rnd = random(20);
    let list = Array.from({ length: 200 }, (_, i) =>
      station(`GS_${i}`, { location: [rnd() * 180 - 90, rnd() * 360 - 180] }),
    );
    const reducer = new StationListReducer();
    const fromDeltas = new Drawn();
    const fromFullLists = new Drawn();
    let seq = 41;
    const first = reducer.apply(full(seq, list));
    expect(first).not.toBe('resync');
    fromDeltas.applyDelta(first as StationDelta);
    let next = 200;
    for (let version = 0; version < 60; version += 1) {
      // One version: what the server sends after stations came, went, moved, flipped or retuned.
      const changed = new Map<string, StationListItem>();
      const removed: string[] = [];
      for (let k = 0; k < 1 + Math.floor(rnd() * 8); k += 1) {
        const i = Math.floor(rnd() * list.length);
        const s = list[i] as StationListItem;
        const roll = rnd();
        let after: StationListItem | null;
        if (roll < 0.15) after = null;
        else if (roll < 0.3)
          after = station(`GS_${next++}`, { location: [rnd() * 90, rnd() * 90] });
        else if (roll < 0.55) after = { ...s, status: s.status === 1 ? 0 : 1, lastSeen: version };
        else if (roll < 0.75) after = { ...s, location: [rnd() * 90, rnd() * 90] };
        else after = { ...s, satellite: `Sat${version}`, satDisplayName: `Sat ${version}` };
        if (after === null) {
          list = list.filter((x) => x !== s);
          changed.delete(idOf(s));
          removed.push(idOf(s));
        } else if (after.name !== s.name) {
          list = [...list, after];
          changed.set(idOf(after), after);
        } else {
          list = list.map((x) => (x === s ? after : x));
          changed.set(idOf(after), after);
        }
      }
      seq += 1;
      const update = reducer.apply(delta(seq, [...changed.values()], removed));
      expect(update).not.toBe('resync');
      fromDeltas.applyDelta(update as StationDelta);
      fromFullLists.update(list);
      expect(fromDeltas.list()).toEqual(fromFullLists.list());
      expect(reducer.list()).toEqual(byId(list));
    }
  });

  it('asks for the stream again after a gap and applies nothing until a full list', () => {
    const reducer = new StationListReducer();
    expect(reducer.apply(delta(1, [station('A')]))).toBe('resync');
    expect(reducer.apply(full(5, [station('A'), station('B')]))).toEqual({
      changed: [station('A'), station('B')],
      removed: [],
    });
    expect(reducer.apply(delta(7, [station('C')]))).toBe('resync');
    // Late events of the old stream change nothing either.
    expect(reducer.apply(delta(8, [station('D')]))).toBe('resync');
    expect(reducer.list().map((s) => s.name)).toEqual(['A', 'B']);

    // The reopened stream's full list: only what differs reaches the markers.
    const again = reducer.apply(full(9, [station('B', { status: 0 }), station('C')]));
    expect(again).toEqual({
      changed: [station('B', { status: 0 }), station('C')],
      removed: ['A@7'],
    });
    expect(reducer.apply(delta(10, [], ['C@7']))).toEqual({ changed: [], removed: ['C@7'] });
    expect(reducer.list()).toEqual([station('B', { status: 0 })]);
  });

  it('drops a malformed event and keeps its version', () => {
    const reducer = new StationListReducer();
    reducer.apply(full(1, [station('A')]));
    expect(reducer.apply('not json')).toBeNull();
    expect(
      reducer.apply(JSON.stringify({ seq: 2, full: false, changed: [{}], removed: [] })),
    ).toBeNull();
    expect(reducer.apply(delta(2, [station('A', { status: 0 })]))).toEqual({
      changed: [station('A', { status: 0 })],
      removed: [],
    });
  });

  it('keeps the list the map was drawn from when the stream says it is current, and names it by what a map draws', async () => {
    const drawn = [station('A'), station('B', { status: 0 }), station('C')];
    const reducer = new StationListReducer();
    const digest = await reducer.seed(drawn);
    // The digest the server computes for the same list (apps/server/src/network/sse.ts).
    expect(digest).toBe(
      createHash('sha256').update(stationListDigestText(drawn)).digest('hex').slice(0, 32),
    );
    // Other fields and another order draw the same; one station moved does not.
    const same = [station('C', { lastSeen: 99 }), station('A'), station('B', { status: 0 })];
    expect(await new StationListReducer().seed(same)).toBe(digest);
    const moved = [station('A', { location: [41, -3] }), station('B', { status: 0 }), station('C')];
    expect(await new StationListReducer().seed(moved)).not.toBe(digest);

    const kept = JSON.stringify({ seq: 12, full: true, changed: [], removed: [], kept: true });
    expect(reducer.apply(kept)).toEqual({ changed: [], removed: [] });
    expect(reducer.list()).toEqual(drawn);
    // Numbered changes go on from the kept version.
    expect(reducer.apply(delta(13, [station('B', { status: 1 })], ['C@7']))).toEqual({
      changed: [station('B', { status: 1 })],
      removed: ['C@7'],
    });
    expect(reducer.list()).toEqual([station('A'), station('B', { status: 1 })]);
    // A kept event anywhere but first on a seeded stream (a stream reopened by the browser with
    // the old digest) cannot be trusted: the stream is opened again.
    expect(
      reducer.apply(JSON.stringify({ seq: 14, full: true, changed: [], removed: [], kept: true })),
    ).toBe('resync');
    expect(reducer.list()).toEqual([station('A'), station('B', { status: 1 })]);
  });

  it('holds a seeded list but names no digest where the page has no Web Crypto (plain HTTP)', async () => {
    vi.stubGlobal('crypto', undefined);
    try {
      const reducer = new StationListReducer();
      expect(await reducer.seed([station('A')])).toBeNull();
      const kept = JSON.stringify({ seq: 3, full: true, changed: [], removed: [], kept: true });
      expect(reducer.apply(kept)).toEqual({ changed: [], removed: [] });
      expect(reducer.list()).toEqual([station('A')]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('applies what changed since the seeded list was current when the stream says so', () => {
    const reducer = new StationListReducer();
    void reducer.seed([station('A'), station('B'), station('C')]);
    const since = JSON.stringify({
      seq: 20,
      full: true,
      changed: [station('B', { status: 0 }), station('D')],
      removed: ['C@7'],
      kept: true,
    });
    expect(reducer.apply(since)).toEqual({
      changed: [station('B', { status: 0 }), station('D')],
      removed: ['C@7'],
    });
    expect(reducer.list()).toEqual([station('A'), station('B', { status: 0 }), station('D')]);
    expect(reducer.apply(delta(21, [], ['A@7']))).toEqual({ changed: [], removed: ['A@7'] });
  });

  it('draws only what differs when a seeded list is answered with the whole list', () => {
    const reducer = new StationListReducer();
    void reducer.seed([station('A'), station('B')]);
    expect(reducer.apply(delta(3, [station('C')]))).toBe('resync');
    void reducer.seed([station('A'), station('B')]);
    expect(reducer.apply(full(3, [station('A'), station('B', { status: 0 })]))).toEqual({
      changed: [station('B', { status: 0 })],
      removed: [],
    });
    expect(reducer.apply(delta(4, [station('C')]))).toEqual({
      changed: [station('C')],
      removed: [],
    });
  });
});
