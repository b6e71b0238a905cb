// The station list on the live event stream, as map clients meet it: a `stations` event only when
// something a map shows changed, the same bytes to every client; with ?stations=delta numbered
// changes, the whole list on connect and again after the server had to skip an event for a slow
// client. Station rows are changed directly and announced on the event bus, as ingest and the
// owner's routes do.
import { createHash } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  formatStationId,
  stationListDigestText,
  StationsDeltaEventSchema,
  StationsEventSchema,
  type NewPacketEvent,
  type StationListItem,
  type StationsDeltaEvent,
} from '@tinygs/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewStation } from '../src/db/schema';
import { DEFAULT_SSE_OPTIONS, SseHub } from '../src/network/sse';
import { listStationListItems } from '../src/repositories/stations';
import { buildStation, buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { openEventStream, waitFor, type SseEvent } from './network-helpers';

type Stream = Awaited<ReturnType<typeof openEventStream>>;

const lists = (s: Stream) =>
  s.events
    .filter((e) => e.event === 'stations')
    .map((e) => StationsEventSchema.parse(JSON.parse(e.data)));
const deltas = (s: Stream): StationsDeltaEvent[] =>
  s.events
    .filter((e) => e.event === 'stations-delta')
    .map((e) => StationsDeltaEventSchema.parse(JSON.parse(e.data)));

/** What a delta client holds after applying its events in order (ordered by id). */
function replay(events: readonly StationsDeltaEvent[]): { seq: number; list: StationListItem[] } {
  const held = new Map<string, StationListItem>();
  let seq = -1;
  for (const e of events) {
    if (e.full) held.clear();
    else expect(e.seq).toBe(seq + 1);
    seq = e.seq;
    for (const s of e.changed) held.set(formatStationId(s.name, s.userId), s);
    for (const id of e.removed) held.delete(id);
  }
  const list = [...held.keys()].sort().map((id) => held.get(id) as StationListItem);
  return { seq, list };
}

describe.each(DIALECTS)('the live station list on %s', (dialect) => {
  let server: TestServer;
  let http: HttpServer;
  let hub: SseHub;
  let url = '';
  let userId = '';
  const opened: Stream[] = [];

  const open = async (form: 'full' | 'delta', known?: string) => {
    const path = form === 'delta' ? `/?stations=delta${known ? `&known=${known}` : ''}` : '/';
    const s = await openEventStream(url, {}, path);
    opened.push(s);
    return s;
  };
  /** Changes a station row and announces it, as ingest does after its batch committed. */
  const change = async (name: string, patch: Partial<NewStation>) => {
    const id = formatStationId(name, userId);
    await server.ctx.database.db.updateTable('stations').set(patch).where('id', '=', id).execute();
    server.ctx.events.publish('stations-changed', { stationIds: [id] });
  };
  /** Waits until the hub has read the stations announced so far. */
  const refreshed = async () => {
    const before = hub.stats.stationRefreshes;
    await waitFor(() => hub.stats.stationRefreshes > before);
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const db = server.ctx.database.db;
    userId = (await buildUser(db)).id;
    for (const [i, name] of ['Map_A', 'Map_B', 'Map_C'].entries()) {
      await buildStation(db, {
        userId,
        name,
        lat: 10 + i,
        lng: 20 + i,
        status: 1,
        lastSeen: 1_000,
      });
    }
    hub = new SseHub(server.ctx, pino({ level: 'silent' }), {
      ...DEFAULT_SSE_OPTIONS,
      stationsEveryMs: 100,
      maxBufferedBytes: 64 * 1024,
      slowClientMs: 60_000,
    });
    hub.start();
    http = createServer((req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const form = query.get('stations') === 'delta' ? 'delta' : 'full';
      hub.add(req, res, 'test', form, query.get('known'));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of opened) s.close();
    hub?.stop();
    if (http) await new Promise((resolve) => http.close(resolve));
    await server?.stop();
  });

  it('sends nothing for receptions and pings, and one list for a status or location change, the same bytes to every client', async () => {
    const clients = [await open('full'), await open('full'), await open('full')];
    const delta = await open('delta');
    await waitFor(() => deltas(delta).length > 0);

    // lastSeen, lastPacketTime and counters: what every reception and ping changes.
    await change('Map_A', { lastSeen: 2_000, lastPacketTime: 2_000, telemetryPackets: 5 });
    await refreshed();
    const serialised = hub.stats.listSerialisations;
    await change('Map_B', { status: 0 });
    await waitFor(() => clients.every((c) => lists(c).length > 0) && deltas(delta).length > 1);
    // One event each: the reception before the status change sent nothing (TCP keeps the order).
    const sent = clients.map((c) => c.events.filter((e) => e.event === 'stations'));
    expect(sent.map((s) => s.length)).toEqual([1, 1, 1]);
    expect(new Set(sent.map((s) => s[0]?.data)).size).toBe(1);
    expect(hub.stats.listSerialisations).toBe(serialised + 1);
    const [list] = lists(clients[0] as Stream);
    expect(list?.find((s) => s.name === 'Map_B')?.status).toBe(0);
    // A station's entry is the one read at its last change a map shows.
    expect(list?.find((s) => s.name === 'Map_A')?.lastSeen).toBe(1_000);
    expect(deltas(delta)[1]).toMatchObject({ full: false, removed: [] });
    expect(deltas(delta)[1]?.changed.map((s) => [s.name, s.status])).toEqual([['Map_B', 0]]);

    await change('Map_C', { lat: -33.9, lng: 18.4 });
    await waitFor(() => clients.every((c) => lists(c).length > 1));
    const moved = clients.map((c) => c.events.filter((e) => e.event === 'stations')[1]?.data);
    expect(new Set(moved).size).toBe(1);
    expect(lists(clients[1] as Stream)[1]?.find((s) => s.name === 'Map_C')?.location).toEqual([
      -33.9, 18.4,
    ]);
    // The delta client holds exactly the full list, version after version.
    await waitFor(() => deltas(delta).length > 2);
    expect(replay(deltas(delta)).list).toEqual(lists(clients[2] as Stream)[1]);
  });

  it('gives a delta client the whole list on connect, then changed and removed stations in order', async () => {
    const full = await open('full');
    const delta = await open('delta');
    const first = await waitFor(() => deltas(delta)[0]);
    const stored = await listStationListItems(server.ctx.database.db);
    expect(first.full).toBe(true);
    expect(first.changed.map((s) => s.name)).toEqual(stored.map((s) => s.name));

    const db = server.ctx.database.db;
    await db.deleteFrom('stations').where('id', '=', formatStationId('Map_A', userId)).execute();
    server.ctx.events.publish('stations-changed', {
      stationIds: [formatStationId('Map_A', userId)],
    });
    await waitFor(() => deltas(delta).length > 1);
    expect(deltas(delta)[1]).toEqual({
      seq: first.seq + 1,
      full: false,
      changed: [],
      removed: [formatStationId('Map_A', userId)],
    });

    const added = await buildStation(db, {
      userId,
      name: 'Map_D',
      lat: 64.1,
      lng: -21.9,
      status: 1,
    });
    server.ctx.events.publish('stations-changed', { stationIds: [added] });
    await waitFor(() => deltas(delta).length > 2 && lists(full).length > 1);
    expect(deltas(delta)[2]).toMatchObject({ seq: first.seq + 2, full: false, removed: [] });
    expect(deltas(delta)[2]?.changed.map((s) => s.name)).toEqual(['Map_D']);
    expect(replay(deltas(delta))).toEqual({ seq: first.seq + 2, list: lists(full)[1] });
  });

  it('opens a delta stream with a small kept event for a client that holds the list GET /v1/stations gave, and with the whole list otherwise', async () => {
    const visitorList = async () =>
      (await server.app.inject({ method: 'GET', url: '/v1/stations' })).json<StationListItem[]>();
    const digestOf = (list: StationListItem[]) =>
      createHash('sha256').update(stationListDigestText(list)).digest('hex').slice(0, 32);
    const reference = await open('delta');
    const current = await waitFor(() => deltas(reference)[0]);
    // Receptions move lastSeen: the list still draws the same, and the digest says so.
    const held = (await visitorList()).map((s) => ({ ...s, lastSeen: 99_999 }));
    const keeps = await open('delta', digestOf(held));
    const kept = await waitFor(() => keeps.events[0]);
    expect(kept.event).toBe('stations-delta');
    expect(kept.data.length).toBeLessThan(100);
    expect(JSON.parse(kept.data)).toEqual({
      seq: current.seq,
      full: true,
      changed: [],
      removed: [],
      kept: true,
    });

    // A list that draws one station elsewhere is not kept: the whole list comes.
    const moved = held.map((s, i) =>
      i === 0 ? { ...s, location: [s.location[0] + 1, s.location[1]] as [number, number] } : s,
    );
    const stale = await open('delta', digestOf(moved));
    const whole = await waitFor(() => deltas(stale)[0]);
    expect(whole).toMatchObject({ seq: current.seq, full: true, removed: [] });
    expect(whole.kept).toBeUndefined();
    expect(whole.changed).toEqual(current.changed);

    // The kept stream goes on with numbered changes from there.
    // (Map_B is offline since the first test; it is put back so.)
    await change('Map_B', { status: 1 });
    await waitFor(() => deltas(keeps).length > 1);
    expect(deltas(keeps)[1]).toMatchObject({ seq: current.seq + 1, full: false });
    expect(deltas(keeps)[1]?.changed.map((s) => [s.name, s.status])).toEqual([['Map_B', 1]]);
    await change('Map_B', { status: 0 });
    await waitFor(() => deltas(keeps).length > 2);
    expect(deltas(keeps)[2]).toMatchObject({ seq: current.seq + 2, full: false });
    await change('Map_C', { lat: 51.5, lng: -0.1 });
    await waitFor(() => deltas(keeps).length > 3);

    // A client that holds the list of an earlier version is sent what changed since, merged; the
    // list `held` drew as version seq and as seq + 2 (Map_B went back offline): since the newer.
    const behind = await open('delta', digestOf(held));
    const since = await waitFor(() => deltas(behind)[0]);
    expect(since).toMatchObject({ seq: current.seq + 3, full: true, kept: true, removed: [] });
    expect(since.changed.map((s) => [s.name, s.location])).toEqual([['Map_C', [51.5, -0.1]]]);
    const fresh = await open('delta');
    // Applied to what it held, that is the whole list a new client is sent.
    const rebuilt = new Map<string, StationListItem>(
      held.map((s) => [formatStationId(s.name, s.userId), s]),
    );
    for (const s of since.changed) rebuilt.set(formatStationId(s.name, s.userId), s);
    const shown = (list: StationListItem[]) =>
      list
        .map((s) => [s.name, s.status, s.location])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(shown([...rebuilt.values()])).toEqual(
      shown((await waitFor(() => deltas(fresh)[0])).changed),
    );
  });

  it('sends the whole list again to a delta client that had an event skipped', async () => {
    const slow = await open('delta');
    const full = await open('full');
    await waitFor(() => deltas(slow).length > 0);
    slow.response.pause();
    // Fill its socket until the hub skips writes for it (the reading client keeps up).
    const big = { packetId: 'x'.repeat(256 * 1024) } as unknown as NewPacketEvent;
    await waitFor(async () => {
      server.ctx.events.publish('new-packet', big);
      await new Promise((r) => setTimeout(r, 20));
      return hub.stats.skippedWrites > 0;
    });
    const skipped = hub.stats.skippedWrites;
    await change('Map_B', { status: 1 });
    await waitFor(() => lists(full).length > 0);
    expect(hub.stats.skippedWrites).toBeGreaterThan(skipped);
    const missed = (await waitFor(() => deltas(slow)[0])).seq + 1;

    slow.response.resume();
    // Its next write (here a packet) brings the owed list.
    await waitFor(async () => {
      server.ctx.events.publish('new-packet', { packetId: 'small' } as unknown as NewPacketEvent);
      await new Promise((r) => setTimeout(r, 50));
      return deltas(slow).some((e) => e.seq >= missed);
    }, 15_000);
    const after = deltas(slow).filter((e) => e.seq >= missed);
    expect(after[0]).toMatchObject({ seq: missed, full: true, removed: [] });
    expect(replay(deltas(slow)).list).toEqual(lists(full)[0]);
  });

  it('takes the changed stations from the list GET /v1/stations read after the change, and reads them itself otherwise', async () => {
    const delta = await open('delta');
    await waitFor(() => deltas(delta).length > 0);
    const taken = hub.stats.stationReadsShared;
    const visitorList = async () =>
      (await server.app.inject({ method: 'GET', url: '/v1/stations' })).json<StationListItem[]>();

    // A visitor asks for the list after the change: the live list is made from that one read.
    await change('Map_C', { status: 0 });
    expect((await visitorList()).find((s) => s.name === 'Map_C')?.status).toBe(0);
    await waitFor(() => deltas(delta).length > 1);
    expect(hub.stats.stationReadsShared).toBe(taken + 1);
    expect(deltas(delta)[1]?.changed.map((s) => [s.name, s.status])).toEqual([['Map_C', 0]]);

    // The newest read of the list began before this change: the hub reads the station itself.
    await change('Map_C', { status: 1 });
    await waitFor(() => deltas(delta).length > 2);
    expect(hub.stats.stationReadsShared).toBe(taken + 1);
    expect(deltas(delta)[2]?.changed.map((s) => [s.name, s.status])).toEqual([['Map_C', 1]]);
    expect(replay(deltas(delta)).list.find((s) => s.name === 'Map_C')?.status).toBe(1);
  });
});

describe('GET /sse/events?stations=', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { listen: true });
    const user = await buildUser(server.ctx.database.db);
    const id = await buildStation(server.ctx.database.db, {
      userId: user.id,
      name: 'Route_GS',
      status: 1,
    });
    server.ctx.events.publish('stations-changed', { stationIds: [id] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('opens the delta form with the whole list, and refuses an unknown form', async () => {
    const stream = await openEventStream(server.url, {}, '/sse/events?stations=delta');
    const first = await waitFor(() =>
      stream.events.find((e: SseEvent) => e.event === 'stations-delta'),
    );
    const event = StationsDeltaEventSchema.parse(JSON.parse(first.data));
    expect(event).toMatchObject({ full: true, removed: [] });
    expect(event.changed.map((s) => s.name)).toEqual(['Route_GS']);
    stream.close();

    const res = await fetch(`${server.url}/sse/events?stations=everything`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
    // `known` is a 32-digit hex digest, nothing longer or else.
    const long = await fetch(`${server.url}/sse/events?stations=delta&known=${'a'.repeat(33)}`);
    expect(long.status).toBe(400);
  });
});
