// Oversized and compressed requests, rate limits per client and per account behind a trusted
// proxy, and the server's time-outs. Every documented route gets each of its fields at sizes up
// to 1 MB, plain and gzip-compressed, over real HTTP: each must be refused (4xx) at once and
// cheaply while /healthz keeps answering. Time bounds are loose (they catch stalls of seconds);
// exact figures belong in a benchmark.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HTTP_TIMEOUTS, JSON_BODY_LIMIT } from '../src/http/limits';
import {
  loggedInUser,
  loginLinkIn,
  solveCaptcha,
  waitForMail,
  type LoggedIn,
} from './accounts-support';
import { buildStation, buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { documentedOperations, pathParams, type Operation } from './openapi-operations';

const MB = 1024 * 1024;
// 40 kB took the old e-mail pattern over a second; 900 kB fitted under the old 1 MB body limit.
const SIZES = [40_000, 900_000, MB];
const WALL_BUDGET_MS = 2_000;
const CPU_BUDGET_MS = 300;

let addressCounter = 0;
/** A fresh client address each call, so per-client limits never hide what is being tested. */
function nextAddress(): string {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

interface HostileRequest {
  label: string;
  method: Operation['method'];
  url: string;
  body?: Buffer;
  gzip: boolean;
}

/** One request per field per size: the field `size` characters long, everything else plain. */
function hostileRequests(op: Operation, own: Record<string, string>): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const params = pathParams(op.path);
  const pathWith = (huge?: string, text?: string) =>
    params.reduce(
      (path, name) =>
        path.replace(
          `{${name}}`,
          name === huge && text ? text : encodeURIComponent(own[name] ?? 'x'),
        ),
      op.path,
    );
  for (const size of SIZES) {
    const text = 'a'.repeat(size);
    for (const key of op.bodyKeys) {
      // A field of the e-mail's shape where an e-mail belongs, plain text elsewhere.
      const value = key === 'email' ? `a@${'.'.repeat(size)}@` : text;
      const body = Buffer.from(JSON.stringify({ [key]: value }));
      for (const gzip of [false, true]) {
        requests.push({
          label: `${op.method} ${op.path} body.${key} ${size}${gzip ? ' gzip' : ''}`,
          method: op.method,
          url: pathWith(),
          body: gzip ? gzipSync(body) : body,
          gzip,
        });
      }
    }
    // Query strings and path segments travel in the request head: node refuses long ones (431).
    for (const key of op.queryKeys) {
      requests.push({
        label: `${op.method} ${op.path} query.${key} ${size}`,
        method: op.method,
        url: `${pathWith()}?${key}=${text}`,
        gzip: false,
      });
    }
    for (const name of params) {
      requests.push({
        label: `${op.method} ${op.path} path.${name} ${size}`,
        method: op.method,
        url: pathWith(name, text),
        gzip: false,
      });
    }
  }
  return requests;
}

async function send(
  server: TestServer,
  request: HostileRequest,
  headers: Record<string, string>,
): Promise<number> {
  const res = await fetch(`${server.url}${request.url}`, {
    method: request.method,
    headers: {
      ...headers,
      'x-forwarded-for': nextAddress(),
      ...(request.body ? { 'content-type': 'application/json' } : {}),
      ...(request.gzip ? { 'content-encoding': 'gzip' } : {}),
    },
    ...(request.body && request.method !== 'GET' ? { body: request.body } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

async function healthzMs(server: TestServer): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${server.url}/healthz`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return performance.now() - start;
}

describe.each(DIALECTS)('hostile request sizes (%s)', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let operations: Operation[] = [];
  const own: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer(dialect, { listen: true, env: { TRUST_PROXY: '1' } });
    owner = await loggedInUser(server);
    own.id = await buildStation(server.ctx.database.db, { userId: owner.id, name: 'Huge_GS' });
    own.userId = owner.id;
    own.name = 'Norbi';
    own.pictureId = '0123456789abcdef';
    operations = await documentedOperations(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses every field of every route at up to 1 MB, plain and gzip, at once, while /healthz answers', async () => {
    const slow: string[] = [];
    let sent = 0;
    for (const op of operations) {
      for (const request of hostileRequests(op, own)) {
        const cpuBefore = process.cpuUsage();
        const start = performance.now();
        const [status, health] = await Promise.all([
          send(server, request, owner.headers),
          healthzMs(server),
        ]);
        const wallMs = performance.now() - start;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000;
        sent += 1;
        expect(status, request.label).toBeGreaterThanOrEqual(400);
        expect(status, request.label).toBeLessThan(500);
        if (wallMs > WALL_BUDGET_MS || cpuMs > CPU_BUDGET_MS || health > WALL_BUDGET_MS) {
          slow.push(
            `${request.label}: ${Math.round(wallMs)} ms, ${Math.round(cpuMs)} ms CPU, healthz ${Math.round(health)} ms`,
          );
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
    expect(slow).toEqual([]);
  }, 120_000);

  it('gives every JSON route a body limit: 40 kB of valid JSON is refused with 413', async () => {
    const jsonRoutes = operations.filter((op) => op.jsonBody);
    expect(jsonRoutes.map((op) => `${op.method} ${op.path}`)).toContain('POST /weblogin');
    const body = JSON.stringify({ padding: 'a'.repeat(40_000) });
    expect(body.length).toBeGreaterThan(JSON_BODY_LIMIT);
    for (const op of jsonRoutes) {
      const url = pathParams(op.path).reduce(
        (path, name) => path.replace(`{${name}}`, encodeURIComponent(own[name] ?? 'x')),
        op.path,
      );
      const res = await server.app.inject({
        method: op.method,
        url,
        headers: {
          ...owner.headers,
          'content-type': 'application/json',
          'x-forwarded-for': nextAddress(),
        },
        payload: body,
      });
      expect(res.statusCode, `${op.method} ${op.path}`).toBe(413);
    }
  });

  it('refuses compressed request bodies with 415 instead of inflating them', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/weblogin',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-forwarded-for': nextAddress(),
      },
      payload: gzipSync(JSON.stringify({ email: 'a@example.org', captcha: 'x' })),
    });
    expect(res.statusCode).toBe(415);
  });

  it('sets request, header and keep-alive time-outs on the HTTP server', () => {
    const http = server.app.server;
    expect(http.requestTimeout).toBe(HTTP_TIMEOUTS.request);
    expect(http.headersTimeout).toBe(HTTP_TIMEOUTS.headers);
    expect(http.keepAliveTimeout).toBe(HTTP_TIMEOUTS.keepAlive);
    expect(HTTP_TIMEOUTS.request).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)('rate limits per client, per account and overall (%s)', (dialect) => {
  async function login(server: TestServer, address: string, userId: string, loginToken: string) {
    return server.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'x-forwarded-for': address },
      payload: { loginToken, userId },
    });
  }

  async function loginLink(server: TestServer, email: string): Promise<URL> {
    const res = await server.app.inject({
      method: 'POST',
      url: '/weblogin',
      headers: { 'x-forwarded-for': nextAddress() },
      payload: { email, captcha: await solveCaptcha(server) },
    });
    expect(res.statusCode).toBe(200);
    return loginLinkIn(await waitForMail(server, email));
  }

  describe('behind one trusted proxy (TRUST_PROXY=1)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { env: { TRUST_PROXY: '1' } });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('30 failed logins from client A leave client B able to log in', async () => {
      const victim = await buildUser(server.ctx.database.db, { email: 'b-user@example.org' });
      const attacker = '203.0.113.10';
      const statuses: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        statuses.push((await login(server, attacker, victim.id, `guess-${i}`)).statusCode);
      }
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
      const link = await loginLink(server, 'b-user@example.org');
      const ok = await login(
        server,
        '198.51.100.20',
        victim.id,
        link.searchParams.get('loginToken') ?? '',
      );
      expect(ok.statusCode).toBe(200);
      // And A stays refused, even with a right token of its own.
      const own = await buildUser(server.ctx.database.db, { email: 'a-user@example.org' });
      const ownLink = await loginLink(server, 'a-user@example.org');
      const token = ownLink.searchParams.get('loginToken') ?? '';
      expect((await login(server, attacker, own.id, token)).statusCode).toBe(429);
    });

    it('counts an IPv6 client by its /64', async () => {
      const user = await buildUser(server.ctx.database.db);
      for (let i = 0; i < 20; i += 1) {
        // A different address of the same /64 each time.
        const res = await login(server, `2001:db8:7:1::${(i + 1).toString(16)}`, user.id, `g-${i}`);
        expect(res.statusCode).toBe(401);
      }
      expect((await login(server, '2001:db8:7:1:ffff::1', user.id, 'g-x')).statusCode).toBe(429);
      expect((await login(server, '2001:db8:7:2::1', user.id, 'g-y')).statusCode).toBe(401);
    });

    it('limits failed logins per account, whatever the addresses', async () => {
      const user = await buildUser(server.ctx.database.db);
      for (let i = 0; i < 50; i += 1) {
        expect((await login(server, nextAddress(), user.id, `spread-${i}`)).statusCode).toBe(401);
      }
      const res = await login(server, nextAddress(), user.id, 'spread-x');
      expect(res.statusCode).toBe(429);
      expect(res.json<{ error: string }>().error).toMatch(/this account/);
      // Other accounts are untouched.
      const other = await buildUser(server.ctx.database.db);
      expect((await login(server, nextAddress(), other.id, 'first')).statusCode).toBe(401);
    });

    it('refuses login-link requests over the global ceiling before reading them', async () => {
      // The ceiling refills two requests a second: the clock stands still here, so a slow
      // machine cannot refill it between the requests.
      vi.useFakeTimers({ toFake: ['Date'] });
      const statuses: number[] = [];
      try {
        for (let i = 0; i < 101; i += 1) {
          const res = await server.app.inject({
            method: 'POST',
            url: '/weblogin',
            headers: { 'x-forwarded-for': nextAddress(), 'content-type': 'application/json' },
            payload: '{}',
          });
          statuses.push(res.statusCode);
        }
      } finally {
        vi.useRealTimers();
      }
      // Read (and refused as incomplete) until the ceiling, then refused unread, every one.
      const first = statuses.indexOf(429);
      expect(statuses.slice(0, first).every((s) => s === 400)).toBe(true);
      expect(first).toBeGreaterThan(0);
      expect(statuses.slice(first).every((s) => s === 429)).toBe(true);
    });
  });

  describe('without TRUST_PROXY', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('ignores X-Forwarded-For: a client cannot pose as many', async () => {
      const user = await buildUser(server.ctx.database.db);
      for (let i = 0; i < 20; i += 1) {
        const res = await login(server, nextAddress(), user.id, `guess-${i}`);
        expect(res.statusCode).toBe(401);
      }
      expect((await login(server, nextAddress(), user.id, 'guess-x')).statusCode).toBe(429);
    });
  });
});

describe('HSTS', () => {
  it('is sent when the public URL is https, and not otherwise', async () => {
    const secure = await startTestServer('sqlite', {
      env: { PUBLIC_URL: 'https://gs.example.org' },
    });
    const plain = await startTestServer('sqlite', { env: { PUBLIC_URL: 'http://gs.example.org' } });
    try {
      const a = await secure.app.inject({ method: 'GET', url: '/healthz' });
      expect(String(a.headers['strict-transport-security'])).toMatch(/max-age=\d{7,}/);
      const b = await plain.app.inject({ method: 'GET', url: '/healthz' });
      expect(b.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await secure.stop();
      await plain.stop();
    }
  });
});
