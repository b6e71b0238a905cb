// GET /metrics: what an operator's Prometheus sees after real traffic (stored receptions, a merge,
// dropped messages by reason, HTTP answers by route pattern), and who may scrape it.
import { subSatellitePoint, parseTle } from '@tinygs/orbit';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { buildUser, leoTle, setSatelliteTle, type BuiltUser } from './factories';
import { startTestServer, type TestServer } from './harness';
import { NORBI_FRAME, connectStation, publishTele, rxPayload, waitFor } from './network-helpers';

/** The value of one sample line, e.g. `tinygs_frames_dropped_total{reason="not-json"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

describe('GET /metrics', () => {
  let server: TestServer;
  let user: BuiltUser;
  let stations: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    const db = server.ctx.database.db;
    const tle = leoTle('NORBI', 46494);
    await setSatelliteTle(db, 'Norbi', tle);
    await server.ctx.services.network?.catalogue.refresh();
    const point = subSatellitePoint(parseTle(tle), Date.now());
    if (!point) throw new Error('test TLE does not propagate');
    user = await buildUser(db);
    const locations: [number, number][] = [
      [point.lat + 0.3, point.lng],
      [point.lat - 2, point.lng + 1],
    ];
    stations = await Promise.all(
      locations.map((loc, i) =>
        connectStation(server, user, `Metrics_${i}`, { station_location: loc }),
      ),
    );
    // The same frame from both stations: one packet, one merge hit; then one message of junk.
    for (const [i, loc] of locations.entries()) {
      const client = stations[i];
      if (!client) continue;
      await publishTele(
        client,
        user,
        `Metrics_${i}`,
        'rx',
        rxPayload({ station_location: loc, data: NORBI_FRAME }),
      );
    }
    await stations[0]?.publishAsync(`tinygs/${user.id}/Metrics_0/tele/rx`, 'not json at all');
    await waitFor(async () => {
      const n = await db
        .selectFrom('receptions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(n?.n) === 2;
    });
    // The counters move when the store reports a batch back, a moment after its rows commit.
    await waitFor(async () => {
      const res = await server.app.inject({ method: 'GET', url: '/metrics' });
      return (sample(res.body, 'tinygs_receptions_stored_total') ?? 0) >= 2;
    });
    await server.app.inject({ method: 'GET', url: '/v1/statistics' });
  });
  afterAll(async () => {
    await Promise.all(stations.map((s) => s.endAsync()));
    await server?.stop();
  });

  it('counts stored receptions, merges, drops by reason and HTTP answers by route pattern', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(sample(text, 'tinygs_receptions_stored_total')).toBe(2);
    expect(sample(text, 'tinygs_packets_stored_total')).toBe(1);
    expect(sample(text, 'tinygs_merge_hits_total')).toBe(1);
    expect(sample(text, 'tinygs_frames_dropped_total', { reason: 'not-json' })).toBe(1);
    expect(sample(text, 'tinygs_ingest_queue_depth')).toBe(0);
    expect(
      sample(text, 'tinygs_http_request_duration_seconds_count', {
        route: '/v1/statistics',
        status: '2xx',
      }),
    ).toBe(1);
    // Scraping twice does not double the totals copied from the parts.
    const again = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(sample(again.body, 'tinygs_receptions_stored_total')).toBe(2);
  });

  it('answers a non-loopback address 403 when no metrics token is configured', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('tinygs_');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  const token = 'scrape-token-0123456789abcdef';

  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { METRICS_TOKEN: token } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('requires the bearer token, even from loopback', async () => {
    const none = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    const wrong = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('tinygs_http_request_duration_seconds');
  });
});
