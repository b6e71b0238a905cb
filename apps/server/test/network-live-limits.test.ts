// The live event stream's limits: streams per client address and overall are capped (429), and a
// client that stops reading is disconnected instead of holding server memory.
import { createServer, type Server as HttpServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { NewPacketEvent } from '@tinygs/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SSE_OPTIONS, SseHub } from '../src/network/sse';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { openEventStream, waitFor } from './network-helpers';

describe.each(DIALECTS)('live event stream limits on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      listen: true,
      env: { TRUST_PROXY: '1', SSE_MAX_CLIENTS_PER_ADDRESS: '2', SSE_MAX_CLIENTS: '3' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('caps streams per client address and overall', async () => {
    const a1 = await openEventStream(server.url, { 'x-forwarded-for': '203.0.113.1' });
    const a2 = await openEventStream(server.url, { 'x-forwarded-for': '203.0.113.1' });
    expect([a1.response.statusCode, a2.response.statusCode]).toEqual([200, 200]);
    const a3 = await openEventStream(server.url, { 'x-forwarded-for': '203.0.113.1' });
    expect(a3.response.statusCode).toBe(429);
    expect(a3.response.headers['retry-after']).toBe('30');
    a3.close();
    // Another client still gets one, up to the overall cap.
    const b1 = await openEventStream(server.url, { 'x-forwarded-for': '198.51.100.1' });
    expect(b1.response.statusCode).toBe(200);
    const c1 = await openEventStream(server.url, { 'x-forwarded-for': '192.0.2.1' });
    expect(c1.response.statusCode).toBe(429);
    c1.close();
    // A closed stream frees its place.
    a1.close();
    await waitFor(async () => {
      const again = await openEventStream(server.url, { 'x-forwarded-for': '203.0.113.1' });
      if (again.response.statusCode === 200) return again;
      again.close();
      return undefined;
    }).then((again) => again.close());
    a2.close();
    b1.close();
  });
});

describe('a client that stops reading the live event stream', () => {
  let server: TestServer;
  let http: HttpServer;
  let hub: SseHub;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    hub = new SseHub(server.ctx, pino({ level: 'silent' }), {
      ...DEFAULT_SSE_OPTIONS,
      maxBufferedBytes: 64 * 1024,
      slowClientMs: 300,
    });
    hub.start();
    http = createServer((req, res) => hub.add(req, res, 'test'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    hub.stop();
    await new Promise((resolve) => http.close(resolve));
    await server?.stop();
  });

  it('is disconnected once its buffer stays full, while a reading client keeps its stream', async () => {
    const { port } = http.address() as AddressInfo;
    const reader = await openEventStream(`http://127.0.0.1:${port}`);
    const stalled = connect(port, '127.0.0.1');
    stalled.write('GET /sse/events HTTP/1.1\r\nHost: x\r\naccept: text/event-stream\r\n\r\n');
    stalled.on('error', () => undefined);
    // Read the response head, then stop reading for good.
    await new Promise((resolve) => stalled.once('data', resolve));
    stalled.pause();
    await waitFor(() => hub.clientCount === 2 || undefined);

    const big = 'x'.repeat(256 * 1024);
    const timer = setInterval(() => {
      server.ctx.events.publish('new-packet', { packetId: big } as unknown as NewPacketEvent);
    }, 50);
    try {
      // The server side lets go of it (the paused client only notices when it reads again).
      await waitFor(() => hub.clientCount === 1 || undefined, 10_000);
    } finally {
      clearInterval(timer);
    }
    stalled.destroy();
    expect(reader.events.some((e) => e.event === 'new-packet')).toBe(true);
    reader.close();
  });
});
