// The hot public lists are kept built between requests: a packet the ingest stores and announces
// is in /v2/packets on the very next request, a station change in /v1/stations, and every client
// gets the same document in the encoding it accepts, with an ETag it can revalidate.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  PacketDetailResponseSchema,
  PacketsV2ResponseSchema,
  StationResponseSchema,
  StationsResponseSchema,
} from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { CLOSED_PACKET_TTL_S } from '../src/public-api/packet/service';
import { STATION_PAGE_TTL_MS } from '../src/public-api/station/service';
import { FastBody, PreparedBody } from '../src/public-api/http-cache';
import { PACKET_LIST_MIN_REBUILD_MS, latestPacketsOf } from '../src/read-models/latest-packets';
import { STATION_LIST_MIN_REBUILD_MS } from '../src/read-models/station-list';
import { loggedInUser } from './accounts-support';
import { buildStation, buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, nextBusEvent, publishTele, rxPayload } from './network-helpers';
import { hexId, insertPackets } from './public-fixtures';

describe.each(DIALECTS)('public list documents on %s', (dialect) => {
  let server: TestServer;
  let user: BuiltUser;
  let station: MqttClient | undefined;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    user = await buildUser(server.ctx.database.db);
    // Enough stations and packets that the documents are worth compressing.
    for (let i = 0; i < 40; i++)
      await buildStation(server.ctx.database.db, {
        userId: user.id,
        name: `Cache_GS_${i}`,
        description: `Rooftop turnstile ${i}. `.repeat(80),
      });
    const stationId = `Cache_GS_0@${user.id}`;
    await insertPackets(
      server.ctx.database.db,
      Array.from({ length: 60 }, (_, i) => ({
        id: hexId(9000 + i),
        satellite: 'Norbi',
        serverTime: Date.now() - 3_600_000 + i * 1000,
        stations: [{ id: stationId, userId: user.id }],
      })),
    );
  });
  afterAll(async () => {
    await station?.endAsync();
    await server?.stop();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });

  it('shows a packet in /v2/packets on the first request after the ingest announces it, on a quiet network', async () => {
    const before = PacketsV2ResponseSchema.parse((await get('/v2/packets?satellite=Norbi')).json());
    PacketsV2ResponseSchema.parse((await get('/v2/packets')).json());
    // Quiet: no list was built within the rebuild interval (a busy network shows it within it).
    await new Promise((resolve) => setTimeout(resolve, PACKET_LIST_MIN_REBUILD_MS));
    const announced = nextBusEvent(server.ctx.events, 'new-packet');
    station = await connectStation(server, user, 'Live_GS');
    await publishTele(station, user, 'Live_GS', 'rx', rxPayload());
    const event = await announced;

    const after = PacketsV2ResponseSchema.parse((await get('/v2/packets?satellite=Norbi')).json());
    expect(before.packets.map((p) => p.id)).not.toContain(event.packetId);
    expect(after.packets[0]?.id).toBe(event.packetId);
    const all = PacketsV2ResponseSchema.parse((await get('/v2/packets')).json());
    expect(all.packets[0]?.id).toBe(event.packetId);
    const detail = PacketDetailResponseSchema.parse(
      (await get(`/v1/packet/${event.packetId}`)).json(),
    );
    expect(detail.stations.map((s) => s.name)).toEqual(['Live_GS']);
  });

  it('keeps a satellite’s list as it is when its rebuild reads nothing new, and moves on when it does', async () => {
    const lists = latestPacketsOf(server.ctx);
    const kept = await lists.document('Norbi');
    const sent = await get('/v2/packets?satellite=Norbi', { 'accept-encoding': 'br' });
    const built = vi.spyOn(PreparedBody, 'of');
    try {
      // An event naming Norbi drops its list (as every TTL does); its newest packets are the same.
      const drop = (packetId: string) =>
        server.ctx.events.publish('new-packet', {
          satellite: 'Norbi',
          satelliteName: 'Norbi',
          packetId,
          satPos: { lat: 0, lng: 0, alt: 500 },
          stations: [],
        });
      drop(hexId(9059));
      // Other lists may be rebuilt meanwhile: the one of these bytes is Norbi's.
      const text = kept?.identity.toString();
      const rebuild = () => built.mock.calls.findIndex(([t]) => t === text);
      await vi.waitFor(async () => {
        await lists.document('Norbi');
        expect(rebuild()).toBeGreaterThanOrEqual(0);
      });
      // The same document: no new ETag, hash or compression for bytes already held.
      expect(await built.mock.results[rebuild()]?.value).toBe(kept);
      const again = await get('/v2/packets?satellite=Norbi', { 'accept-encoding': 'br' });
      expect(again.headers.etag).toBe(sent.headers.etag);
      expect(again.rawPayload.equals(sent.rawPayload)).toBe(true);

      const stationId = `Cache_GS_0@${user.id}`;
      await insertPackets(server.ctx.database.db, [
        {
          id: hexId(9100),
          satellite: 'Norbi',
          serverTime: Date.now(),
          stations: [{ id: stationId, userId: user.id }],
        },
      ]);
      drop(hexId(9100));
      await vi.waitFor(async () => {
        const now = await get('/v2/packets?satellite=Norbi');
        expect(PacketsV2ResponseSchema.parse(now.json()).packets[0]?.id).toBe(hexId(9100));
        expect(now.headers.etag).not.toBe(sent.headers.etag);
      });
    } finally {
      built.mockRestore();
    }
  });

  it('shows a station change in /v1/stations on the first request after it is announced, on a quiet network', async () => {
    const list = async () => StationsResponseSchema.parse((await get('/v1/stations')).json());
    const mine = async () =>
      StationsResponseSchema.parse((await get(`/v1/stations?userId=${user.id}`)).json());
    expect((await list()).some((s) => s.name === 'Moved_GS')).toBe(false);
    expect((await mine()).some((s) => s.name === 'Moved_GS')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, STATION_LIST_MIN_REBUILD_MS));
    const changed = nextBusEvent(server.ctx.events, 'stations-changed', (event) =>
      event.stationIds.includes(`Moved_GS@${user.id}`),
    );
    const moved = await connectStation(server, user, 'Moved_GS', {
      station_location: [51.5, -0.12],
    });
    try {
      await changed;
      const entry = (await list()).find((s) => s.name === 'Moved_GS');
      expect(entry).toMatchObject({ userId: user.id, status: 1, location: [51.5, -0.12] });
      expect((await mine()).map((s) => s.name)).toContain('Moved_GS');
    } finally {
      await moved.endAsync();
    }
  });

  it('shows a ping’s last-seen time in /v1/stations on the first request after it is stored', async () => {
    const db = server.ctx.database.db;
    const list = async () => StationsResponseSchema.parse((await get('/v1/stations')).json());
    const id = `Ping_GS@${user.id}`;
    const pinger = await connectStation(server, user, 'Ping_GS');
    try {
      const welcomed = await vi.waitFor(async () => {
        const entry = (await list()).find((s) => s.name === 'Ping_GS');
        expect(entry).toBeDefined();
        return entry;
      }, 5_000);
      // Quiet: the list built above is past the rebuild interval when the ping comes.
      await new Promise((resolve) => setTimeout(resolve, STATION_LIST_MIN_REBUILD_MS));
      const stored = nextBusEvent(server.ctx.events, 'stations-seen', (event) =>
        event.stationIds.includes(id),
      );
      await publishTele(pinger, user, 'Ping_GS', 'ping', { RSSI: -64, radio: 0 });
      await stored;
      const row = await db
        .selectFrom('stations')
        .select('lastSeen')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const shown = (await list()).find((s) => s.name === 'Ping_GS');
      expect(shown?.lastSeen).toBe(row.lastSeen);
      expect(shown?.lastSeen).toBeGreaterThan(welcomed?.lastSeen ?? Infinity);
    } finally {
      await pinger.endAsync();
    }
  });

  it('sends the same document br or gzip compressed as accepted, and 304 for its ETag', async () => {
    for (const url of ['/v1/stations', '/v2/packets?satellite=Norbi']) {
      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const etag = String(plain.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(plain.headers['cache-control']).toBe('public, no-cache');
      expect(String(plain.headers.vary)).toContain('accept-encoding');

      const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gz = await get(url, { 'accept-encoding': 'gzip;q=1, br;q=0' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
      expect(br.headers.etag).toBe(etag);

      const unchanged = await get(url, { 'if-none-match': etag });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.body).toBe('');
    }
  });

  it('compresses single packets and stations as accepted, keeping their Vary on the session', async () => {
    const id = `Cache_GS_0@${user.id}`;
    const plain = await get(`/v1/station/${id}`);
    const br = await get(`/v1/station/${id}`, { 'accept-encoding': 'br' });
    StationResponseSchema.parse(plain.json());
    expect(String(br.headers.vary)).toMatch(/userId, sessionToken, accept-encoding/);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const packet = await get(`/v1/packet/${hexId(9001)}`);
    const gz = await get(`/v1/packet/${hexId(9001)}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(packet.body);
    expect(PacketDetailResponseSchema.parse(packet.json()).id).toBe(hexId(9001));
  });

  it('lets browsers keep a packet whose merge window has closed, and revalidates one still open', async () => {
    const closed = await get(`/v1/packet/${hexId(9002)}`);
    expect(closed.headers['cache-control']).toBe(`public, max-age=${CLOSED_PACKET_TTL_S}`);
    const etag = String(closed.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(`/v1/packet/${hexId(9002)}`, { 'if-none-match': etag })).statusCode).toBe(
      304,
    );
    expect((await get(`/v1/packet/${hexId(9002)}`)).body).toBe(closed.body);

    // A frame heard now: its packet may still gain stations, and each one shows at once.
    const frame = { data: 'TmV3IGZyYW1lIGZvciB0aGUgY2FjaGUgdGVzdA==' };
    const receptionOf = async (name: string) => {
      let packetId: string | undefined;
      await vi.waitFor(
        async () => {
          const row = await server.ctx.database.db
            .selectFrom('receptions')
            .select('packetId')
            .where('stationId', '=', `${name}@${user.id}`)
            .executeTakeFirst();
          expect(row).toBeDefined();
          packetId = row?.packetId;
        },
        { timeout: 10_000, interval: 50 },
      );
      return packetId as string;
    };
    const first = await connectStation(server, user, 'Join_A');
    const second = await connectStation(server, user, 'Join_B');
    try {
      await publishTele(first, user, 'Join_A', 'rx', rxPayload(frame));
      const packetId = await receptionOf('Join_A');
      const open = await get(`/v1/packet/${packetId}`);
      expect(open.headers['cache-control']).toBe('public, no-cache');
      expect(PacketDetailResponseSchema.parse(open.json()).stations.map((s) => s.name)).toEqual([
        'Join_A',
      ]);
      await publishTele(second, user, 'Join_B', 'rx', rxPayload(frame));
      expect(await receptionOf('Join_B')).toBe(packetId);
      const joined = PacketDetailResponseSchema.parse((await get(`/v1/packet/${packetId}`)).json());
      expect(joined.stations.map((s) => s.name).sort()).toEqual(['Join_A', 'Join_B']);
    } finally {
      await Promise.all([first.endAsync(), second.endAsync()]);
    }
  });

  it('keeps a station page built for visitors until the station changes; its owner always gets a fresh private view', async () => {
    const owner = await loggedInUser(server);
    const id = await buildStation(server.ctx.database.db, { userId: owner.id, name: 'Page_GS' });
    const visitor = await get(`/v1/station/${id}`);
    expect(visitor.headers['cache-control']).toBe('public, no-cache');
    const etag = String(visitor.headers.etag);
    expect((await get(`/v1/station/${id}`, { 'if-none-match': etag })).statusCode).toBe(304);
    expect(visitor.json()).not.toHaveProperty('modem_conf');
    // Another user's session, or the owner's id without its session, sees the visitor's page.
    const stranger = await loggedInUser(server);
    expect((await get(`/v1/station/${id}`, stranger.headers)).body).toBe(visitor.body);
    expect((await get(`/v1/station/${id}`, { userid: owner.id, sessiontoken: 'x' })).body).toBe(
      visitor.body,
    );
    const own = await get(`/v1/station/${id}`, owner.headers);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers.etag).toBeUndefined();
    expect(own.json()).toHaveProperty('modem_conf');

    // A change without an announcement is not seen at once; the station's own event drops the page.
    await server.ctx.database.db
      .updateTable('stations')
      .set({ description: 'Moved to the roof' })
      .where('id', '=', id)
      .execute();
    expect(StationResponseSchema.parse((await get(`/v1/station/${id}`)).json()).description).toBe(
      StationResponseSchema.parse(visitor.json()).description,
    );
    server.ctx.events.publish('stations-changed', { stationIds: [id] });
    const after = await get(`/v1/station/${id}`);
    expect(StationResponseSchema.parse(after.json()).description).toBe('Moved to the roof');
    expect(after.headers.etag).not.toBe(etag);
  });

  it('refreshes a station page past its TTL behind the kept one: the same document while nothing changed, an unannounced change after', async () => {
    const id = await buildStation(server.ctx.database.db, {
      userId: user.id,
      name: 'Refresh_GS',
      description: `Helical antenna on a mast. `.repeat(60),
    });
    const first = await get(`/v1/station/${id}`, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const realNow = performance.now.bind(performance);
    let ahead = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => realNow() + ahead);
    const built = vi.spyOn(FastBody, 'of');
    try {
      // Past the TTL with nothing changed: answered at once, and the refresh keeps the document.
      ahead = STATION_PAGE_TTL_MS + 1_000;
      const stale = await get(`/v1/station/${id}`, { 'accept-encoding': 'br' });
      expect(stale.rawPayload.equals(first.rawPayload)).toBe(true);
      const text = brotliDecompressSync(first.rawPayload).toString();
      await vi.waitFor(() => expect(built.mock.calls.some(([t]) => t === text)).toBe(true));
      const call = built.mock.calls.findIndex(([t]) => t === text);
      const kept = built.mock.results[call]?.value as FastBody;
      expect(built.mock.calls[call]?.[1]).toBe(kept);
      const again = await get(`/v1/station/${id}`, { 'accept-encoding': 'br' });
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

      // A change nobody announced shows once the TTL has passed again.
      await server.ctx.database.db
        .updateTable('stations')
        .set({ description: 'Moved to the roof' })
        .where('id', '=', id)
        .execute();
      expect((await get(`/v1/station/${id}`)).headers.etag).toBe(first.headers.etag);
      ahead += STATION_PAGE_TTL_MS + 1_000;
      await vi.waitFor(async () => {
        const now = await get(`/v1/station/${id}`);
        expect(StationResponseSchema.parse(now.json()).description).toBe('Moved to the roof');
        expect(now.headers.etag).not.toBe(first.headers.etag);
      });
    } finally {
      built.mockRestore();
      clock.mockRestore();
    }
  });
});
