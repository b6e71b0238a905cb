// The hot public lists are kept built between requests: a packet the ingest stores and announces
// is in /v2/packets on the very next request, a station change in /v1/stations, and every client
// gets the same document in the encoding it accepts, with an ETag it can revalidate.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  PacketDetailResponseSchema,
  PacketsV2ResponseSchema,
  StationResponseSchema,
  StationsResponseSchema,
  type NewPacketEvent,
} from '@tinygs/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { buildStation, buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, publishTele, rxPayload } from './network-helpers';
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

  it('shows a packet in /v2/packets on the first request after the ingest announces it', async () => {
    const before = PacketsV2ResponseSchema.parse((await get('/v2/packets?satellite=Norbi')).json());
    PacketsV2ResponseSchema.parse((await get('/v2/packets')).json());
    const announced = new Promise<NewPacketEvent>((resolve) => {
      const stop = server.ctx.events.subscribe('new-packet', (event) => {
        stop();
        resolve(event);
      });
    });
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

  it('shows a station change in /v1/stations on the first request after it is announced', async () => {
    const list = async () => StationsResponseSchema.parse((await get('/v1/stations')).json());
    const mine = async () =>
      StationsResponseSchema.parse((await get(`/v1/stations?userId=${user.id}`)).json());
    expect((await list()).some((s) => s.name === 'Moved_GS')).toBe(false);
    expect((await mine()).some((s) => s.name === 'Moved_GS')).toBe(false);
    const changed = new Promise<void>((resolve) => {
      const stop = server.ctx.events.subscribe('stations-changed', (event) => {
        if (!event.stationIds.includes(`Moved_GS@${user.id}`)) return;
        stop();
        resolve();
      });
    });
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
    expect(br.headers['cache-control']).toBe('private, no-store');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

    const packet = await get(`/v1/packet/${hexId(9001)}`);
    const gz = await get(`/v1/packet/${hexId(9001)}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(packet.body);
    expect(PacketDetailResponseSchema.parse(packet.json()).id).toBe(hexId(9001));
  });
});
