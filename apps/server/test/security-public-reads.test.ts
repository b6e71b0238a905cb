// The hot public reads (a kept station page, a closed packet) as a visitor and an attacker meet
// them: every answer, 200, 304 or 429, carries the security headers; a client past its read limit
// is refused while other clients read on; each client gets the encoding it accepts; the live
// event stream, written outside Fastify's reply, carries the headers too.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { StationResponseSchema } from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStation, buildUser } from './factories';
import { startTestServer, type TestServer } from './harness';
import { openEventStream } from './network-helpers';
import { hexId, insertPackets } from './public-fixtures';

const PER_ADDRESS = 5;

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp).toMatch(/frame-ancestors 'self'/);
  expect(csp).toMatch(/default-src 'self'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
}

describe('hot public reads', () => {
  let server: TestServer;
  let stationId: string;
  const packetId = hexId(7100);

  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      listen: true,
      env: { READ_RATE_PER_MINUTE: String(PER_ADDRESS) },
    });
    const user = await buildUser(server.ctx.database.db);
    stationId = await buildStation(server.ctx.database.db, {
      userId: user.id,
      name: 'Hot_GS',
      description: 'A rooftop station with a long description. '.repeat(40),
    });
    // Heard an hour ago: its merge window has closed, its page is kept.
    await insertPackets(server.ctx.database.db, [
      {
        id: packetId,
        satellite: 'Norbi',
        serverTime: Date.now() - 3_600_000,
        stations: [{ id: stationId, userId: user.id }],
      },
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const read = (address: string, url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, remoteAddress: address, headers });
  /** A client of its own for each request (counted, but never near its limit). */
  let visitors = 0;
  const visit = (url: string, headers: Record<string, string> = {}) =>
    read(`192.0.2.${(visitors += 1)}`, url, headers);

  it('sends the security headers with a kept station page and a closed packet, also with a 304 for their ETag', async () => {
    for (const url of [`/v1/station/${stationId}`, `/v1/packet/${packetId}`]) {
      const first = await visit(url);
      const kept = await visit(url);
      expect(kept.statusCode).toBe(200);
      expect(kept.body).toBe(first.body);
      expectSecurityHeaders(kept.headers);
      const etag = String(kept.headers.etag);
      expect(etag).toMatch(/^".+"$/);
      const revalidated = await visit(url, { 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
      expectSecurityHeaders(revalidated.headers);
      // Another version of the page is not the one the client holds.
      expect((await visit(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
  });

  it('refuses a client past its read limit on a kept station page while others read on', async () => {
    const url = `/v1/station/${stationId}`;
    // Built once by another client: every request below is answered from the kept page.
    expect((await read('198.51.100.20', url)).statusCode).toBe(200);
    const attacker = '203.0.113.66';
    for (let i = 0; i < PER_ADDRESS; i += 1)
      expect((await read(attacker, url)).statusCode).toBe(200);
    const refused = await read(attacker, url);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json<{ error: string }>().error).toMatch(/slow down/i);
    expectSecurityHeaders(refused.headers);
    // Revalidating does not get round the limit either.
    expect((await read(attacker, url, { 'if-none-match': '"x"' })).statusCode).toBe(429);
    // The same /64 is the same client; other clients are untouched.
    expect((await read('2001:db8:5:6::1', url)).statusCode).toBe(200);
    for (let i = 0; i < PER_ADDRESS; i += 1) await read('2001:db8:5:6::2', url);
    expect((await read('2001:db8:5:6::3', url)).statusCode).toBe(429);
    expect((await read('198.51.100.21', url)).statusCode).toBe(200);
    // The operator's own tools on loopback are not counted.
    for (let i = 0; i < PER_ADDRESS * 2; i += 1)
      expect((await read('127.0.0.1', url)).statusCode).toBe(200);
  });

  it('answers each client in the encoding it accepts, whatever others asked for before', async () => {
    const url = `/v1/station/${stationId}`;
    const plain = await visit(url);
    StationResponseSchema.parse(plain.json());
    const asks: [string, string | undefined][] = [
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['identity', undefined],
      ['*;q=0', undefined],
      // A long header is read as well, not cut short.
      [`${'x-unknown, '.repeat(40)}gzip`, 'gzip'],
    ];
    for (const [accept, expected] of asks) {
      const res = await visit(url, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(expected);
      const body =
        expected === 'br'
          ? brotliDecompressSync(res.rawPayload).toString()
          : expected === 'gzip'
            ? gunzipSync(res.rawPayload).toString()
            : res.body;
      expect(body).toBe(plain.body);
    }
  });

  it('sends the security headers with the live event stream', async () => {
    const stream = await openEventStream(server.url);
    try {
      expect(stream.response.statusCode).toBe(200);
      expect(stream.response.headers['content-type']).toMatch(/text\/event-stream/);
      expectSecurityHeaders(stream.response.headers);
    } finally {
      stream.close();
    }
  });
});
