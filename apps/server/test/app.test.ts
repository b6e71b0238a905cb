// The HTTP skeleton as a client meets it: health, API reference, error shapes, web fallback.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from './harness';

describe.each(DIALECTS)('HTTP skeleton on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the health check once storage is migrated', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI 3.1 document and the reference page', async () => {
    const doc = await server.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    const page = await server.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/Not found/);
  });

  it('answers a body nested thousands deep with a client error, not a crash', async () => {
    const res = await server.app.inject({
      method: 'PUT',
      url: '/v1/station/Deep_GS@1',
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(8000)}${']'.repeat(8000)}`,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('seeds the catalogue on an empty database', async () => {
    const rows = await server.ctx.database.db.selectFrom('satellites').select('name').execute();
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it('sets security headers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
  });

  it('serves the 3D viewer page at the address the web app embeds, with or without a slash', async () => {
    for (const url of ['/viewer?sat=Norbi&gs=40.4,-3.7', '/viewer/?sat=Norbi', '/viewer']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('/viewer/assets/');
    }
  });

  it("sends the web app's entry chunk precompressed from the build, and plain to clients without br", async () => {
    const page = await server.app.inject({ method: 'GET', url: '/' });
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(entry, 'index.html names its entry chunk').toBeDefined();
    const onDisk = readFileSync(join(server.ctx.config.webDist, entry ?? ''));
    const br = await server.app.inject({
      method: 'GET',
      url: entry ?? '',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(onDisk)).toBe(true);
    expect(
      br.rawPayload.equals(readFileSync(join(server.ctx.config.webDist, `${entry ?? ''}.br`))),
    ).toBe(true);
    const plain = await server.app.inject({ method: 'GET', url: entry ?? '' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(onDisk)).toBe(true);
  });
});
