// The database going away and coming back. The server runs on PostgreSQL (a schema of its own)
// reached through a TCP proxy started here; cutting the proxy is the outage, so the machine's
// PostgreSQL itself is never stopped. During the outage the API answers 503 with a JSON error;
// once the proxy listens again the same server answers 200 without a restart.
import { connect, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { DIALECTS, PG_URL, startTestServer, type TestServer } from './harness';

/** Forwards every connection to PostgreSQL; `cut` drops them all and refuses new ones. */
class Proxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    const addr = server.address();
    if (addr && typeof addr === 'object') this.port = addr.port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.skipIf(!DIALECTS.includes('postgres'))('PostgreSQL unreachable', () => {
  const schema = `fault_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const target = new URL(PG_URL);
  const proxy = new Proxy({ host: target.hostname, port: Number(target.port || 5432) });
  let server: TestServer;
  let user: LoggedIn;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    await proxy.listen();
    const url = new URL(PG_URL);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    url.searchParams.set('options', `-c search_path=${schema}`);
    url.searchParams.set('connect_timeout', '2');
    server = await startTestServer('postgres', { env: { DATABASE_URL: url.toString() } });
    user = await loggedInUser(server);
  });
  afterAll(async () => {
    await proxy.cut();
    await proxy.listen();
    await server?.stop();
    await proxy.cut();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  const calls = () => [
    server.app.inject({ method: 'GET', url: '/healthz' }),
    server.app.inject({ method: 'GET', url: `/v1/user?userId=${user.id}`, headers: user.headers }),
    server.app.inject({ method: 'GET', url: '/credentials?otp=123456' }),
    // The public read API as well: a packet that does not exist is a 404 only while we can look.
    server.app.inject({ method: 'GET', url: '/v1/packet/0123456789abcdef01234567' }),
  ];

  it('answers 503 JSON while the database is cut off, and 200 again once it is back', async () => {
    const healthy = await Promise.all(calls());
    expect(healthy.map((r) => r.statusCode)).toEqual([200, 200, 404, 404]);

    await proxy.cut();
    const down = await Promise.all(calls());
    for (const res of down) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json<Record<string, unknown>>()).toHaveProperty('error');
    }
    // The process is still up and serves what needs no database.
    expect((await server.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);

    await proxy.listen();
    const back = await Promise.all(calls());
    expect(back.map((r) => r.statusCode)).toEqual([200, 200, 404, 404]);
  });
});
