// Frames that fail their format's checks, through the real broker and ingest: a corrupted frame of
// each real satellite is stored as unverified with the envelope only (satellite, transmitter power),
// shown so by the API, counted by reason, and kept out of what trusts decoded values; a good frame
// is stored decoded as before.
import { SATELLITE_FORMATS, decodeFrame } from '@tinygs/decoders';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import realFrames from '../src/simulator/real-frames.json';
import { buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, publishTele, rxPayload, waitFor } from './network-helpers';

const REAL_SATELLITES = Object.keys(SATELLITE_FORMATS);
const FRAMES: Readonly<Record<string, readonly string[]>> = realFrames;
const STATION = 'Checks_GS';

/** A captured frame of the satellite (the first of each list passes its checks). */
function goodFrame(satellite: string): Buffer {
  return Buffer.from(FRAMES[satellite]?.[0] ?? '', 'base64');
}

/** The good frame less its last byte. */
function truncated(satellite: string): string {
  const frame = goodFrame(satellite);
  return frame.subarray(0, frame.length - 1).toString('base64');
}

/** What the live network shows for such frames: satellite and transmitter power only. */
function envelope(satellite: string, txPowerMw: number) {
  return {
    payload: { tinygsSatellite: satellite, tinygsTxPower: txPowerMw },
    tinygsSatellite: satellite,
    telemetry: false,
  };
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  required?: string[];
}

function sample(metrics: string, labels: string): number | null {
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith('tinygs_frames_unverified_total{') && l.includes(labels));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe.each(DIALECTS)('unverified frames on %s', (dialect) => {
  let server: TestServer;
  let user: BuiltUser;
  let station: MqttClient;
  const norads = new Map<string, number>();
  const db = () => server.ctx.database.db;
  const packetsOf = (satellite: string) =>
    db()
      .selectFrom('packets')
      .selectAll()
      .where('satellite', '=', satellite)
      .orderBy('serverTime')
      .execute();
  const stationRow = () =>
    db()
      .selectFrom('stations')
      .select(['telemetryPackets', 'confirmedPackets'])
      .where('id', '=', `${STATION}@${user.id}`)
      .executeTakeFirstOrThrow();
  const publish = (satellite: string, data: string) =>
    publishTele(
      station,
      user,
      STATION,
      'rx',
      rxPayload({ satellite, NORAD: norads.get(satellite), data }),
    );

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    const rows = await db()
      .selectFrom('satellites')
      .select(['name', 'norad'])
      .where('name', 'in', REAL_SATELLITES)
      .execute();
    for (const row of rows) if (row.norad !== null) norads.set(row.name, row.norad);
    user = await buildUser(db());
    station = await connectStation(server, user, STATION);
    await waitFor(async () => (await readCounters(db())).stations === 1);
  });
  afterAll(async () => {
    await station?.endAsync();
    await server?.stop();
  });

  it('stores a corrupted frame of every real satellite as unverified, with the envelope only', async () => {
    expect([...norads.keys()].sort()).toEqual([...REAL_SATELLITES].sort());
    for (const satellite of REAL_SATELLITES) await publish(satellite, truncated(satellite));
    // And one frame whose bytes are all there but one bit is wrong: Norby's CRC refuses it.
    const flipped = goodFrame('Norbi');
    flipped[60] = (flipped[60] ?? 0) ^ 0x01;
    await publish('Norbi', flipped.toString('base64'));
    await waitFor(async () => (await stationRow()).telemetryPackets === REAL_SATELLITES.length + 1);

    for (const satellite of REAL_SATELLITES) {
      const [packet] = await packetsOf(satellite);
      if (!packet) throw new Error(`no packet of ${satellite}`);
      expect(packet.unverified, satellite).toBe(1);
      expect(packet.raw).toBe(truncated(satellite));
      expect(packet.txPowerMw, satellite).toBeGreaterThan(0);
      expect(JSON.parse(packet.parsed ?? 'null')).toEqual(
        envelope(satellite, packet.txPowerMw ?? 0),
      );
    }
    const norby = await packetsOf('Norbi');
    expect(norby.map((p) => p.unverified)).toEqual([1, 1]);
    // Unchecked, the flipped frame decodes to a payload of numbers the packet must not carry.
    expect(decodeFrame('Norbi', flipped)).not.toBeNull();
    expect(JSON.parse(norby[1]?.parsed ?? 'null')).toEqual(envelope('Norbi', 2000));
    expect(norby.map((p) => p.txPowerMw)).toEqual([2000, 2000]);

    // Heard, but not a confirmed packet of the station; counted by satellite and failed check.
    expect(await stationRow()).toEqual({
      telemetryPackets: REAL_SATELLITES.length + 1,
      confirmedPackets: 0,
    });
    const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(metrics, 'satellite="Norbi",reason="length"')).toBe(1);
    expect(sample(metrics, 'satellite="Norbi",reason="crc"')).toBe(1);
    expect(sample(metrics, 'satellite="SATLLA-2B",reason="length"')).toBe(1);
  });

  it('shows unverified:true and the envelope in /v2/packets and /v1/packet', async () => {
    for (const satellite of REAL_SATELLITES) {
      const list = await server.app.inject({
        method: 'GET',
        url: `/v2/packets?satellite=${encodeURIComponent(satellite)}`,
      });
      expect(list.statusCode).toBe(200);
      const { packets } = list.json<{ packets: Record<string, unknown>[] }>();
      const shown = packets.find((p) => p.raw === truncated(satellite));
      expect(shown?.unverified, satellite).toBe(true);
      expect(shown?.parsed).toMatchObject({ telemetry: false, tinygsSatellite: satellite });
      const one = await server.app.inject({
        method: 'GET',
        url: `/v1/packet/${String(shown?.id)}`,
      });
      expect(one.json()).toMatchObject({ unverified: true, parsed: shown?.parsed });
      // The satellite's page has no telemetry to show from it.
      const sat = await server.app.inject({
        method: 'GET',
        url: `/v1/satellite/${encodeURIComponent(satellite)}`,
      });
      expect(sat.json<{ lastTelemetry: unknown }>().lastTelemetry, satellite).toBeNull();
    }
  });

  it('documents the flag in the OpenAPI description of both routes', async () => {
    const spec = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    }>();
    const packetOf = {
      '/v2/packets': (schema: SchemaNode) => schema.properties?.packets?.items,
      '/v1/packet/{id}': (schema: SchemaNode) => schema,
    };
    for (const [path, pick] of Object.entries(packetOf)) {
      const ok = spec.paths[path]?.get.responses['200'] as
        { content: { 'application/json': { schema: SchemaNode } } } | undefined;
      const packet = ok && pick(ok.content['application/json'].schema);
      expect(packet?.properties?.unverified, path).toEqual({ type: 'boolean', enum: [true] });
      expect(packet?.required ?? [], path).not.toContain('unverified');
    }
  });

  it('stores a good frame decoded, without the flag', async () => {
    const before = await stationRow();
    for (const satellite of REAL_SATELLITES)
      await publish(satellite, goodFrame(satellite).toString('base64'));
    await waitFor(
      async () =>
        (await stationRow()).telemetryPackets === before.telemetryPackets + REAL_SATELLITES.length,
    );
    expect((await stationRow()).confirmedPackets).toBe(REAL_SATELLITES.length);
    for (const satellite of REAL_SATELLITES) {
      const good = (await packetsOf(satellite)).find((p) => p.unverified === 0);
      if (!good) throw new Error(`no verified packet of ${satellite}`);
      const decoded = decodeFrame(satellite, goodFrame(satellite));
      expect(JSON.parse(good.parsed ?? 'null')).toEqual(decoded);
      const one = await server.app.inject({ method: 'GET', url: `/v1/packet/${good.id}` });
      const body = one.json<Record<string, unknown>>();
      expect(body.parsed).toEqual(decoded);
      expect('unverified' in body).toBe(false);
      const sat = await server.app.inject({
        method: 'GET',
        url: `/v1/satellite/${encodeURIComponent(satellite)}`,
      });
      expect(sat.json<{ lastTelemetry: unknown }>().lastTelemetry).toEqual(decoded);
    }
  });
});
