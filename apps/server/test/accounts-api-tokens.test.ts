// Personal API tokens as their owner, another user, a script and an attacker meet them: created
// (shown once, stored hashed), listed and revoked by the owner only, capped per user; on public
// reads a valid token gets a rate limit of its own, a wrong or revoked one is 401, anonymous
// reads keep the per-address limit; logs name the token, never show it; OpenAPI documents it.
import { Writable } from 'node:stream';
import {
  API_TOKENS_PER_USER,
  ApiTokenCreatedResponseSchema,
  ApiTokenListResponseSchema,
} from '@tinygs/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/lib/crypto';
import { createServer, type Server } from '../src/server';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { DIALECTS, testEnv, type TestEnv } from './harness';

const PER_ADDRESS = 5;
const PER_TOKEN = 8;

describe.each(DIALECTS)('personal API tokens on %s', (dialect) => {
  let env: TestEnv;
  let server: Server;
  const logLines: string[] = [];
  let owner: LoggedIn;
  let other: LoggedIn;

  beforeAll(async () => {
    env = await testEnv(dialect, {
      READ_RATE_PER_MINUTE: String(PER_ADDRESS),
      READ_RATE_TOKEN_PER_MINUTE: String(PER_TOKEN),
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await createServer(env.config, { log: pino({ level: 'info' }, sink), parts: [] });
    owner = await loggedInUser(server);
    other = await loggedInUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await env?.cleanup();
  });

  const tokensUrl = (userId: string) => `/v1/user/${userId}/tokens`;
  const create = (user: LoggedIn, name: string, headers = user.headers) =>
    server.app.inject({ method: 'POST', url: tokensUrl(user.id), headers, payload: { name } });
  const list = (userId: string, headers: Record<string, string>) =>
    server.app.inject({ method: 'GET', url: tokensUrl(userId), headers });
  const revoke = (userId: string, tokenId: string, headers: Record<string, string>) =>
    server.app.inject({ method: 'DELETE', url: `${tokensUrl(userId)}/${tokenId}`, headers });
  /** A public read from a client address (not loopback, which is not counted). */
  const read = (address: string, token?: string, url = '/v1/statistics') =>
    server.app.inject({
      method: 'GET',
      url,
      remoteAddress: address,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  async function newToken(user: LoggedIn, name: string) {
    const res = await create(user, name);
    expect(res.statusCode, res.body).toBe(200);
    return ApiTokenCreatedResponseSchema.parse(res.json());
  }

  it('shows a new token once and stores only its hash and first characters', async () => {
    const created = await newToken(owner, '  Grafana dashboard ');
    expect(created.name).toBe('Grafana dashboard');
    expect(created.token).toMatch(/^tgs_[A-Za-z0-9_-]{43}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(12);

    const listed = ApiTokenListResponseSchema.parse((await list(owner.id, owner.headers)).json());
    const entry = listed.find((t) => t.id === created.id);
    expect(entry).toEqual({
      id: created.id,
      name: 'Grafana dashboard',
      prefix: created.prefix,
      createdAt: created.createdAt,
      lastUsedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const rows = await server.ctx.database.db.selectFrom('apiTokens').selectAll().execute();
    const row = rows.find((r) => r.id === created.id);
    expect(row?.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(rows)).not.toContain(created.token);
  });

  it('lets only the owner list, create and revoke', async () => {
    const created = await newToken(owner, 'mine');
    expect((await list(owner.id, {})).statusCode).toBe(401);
    expect((await list(owner.id, other.headers)).statusCode).toBe(403);
    expect((await create(owner, 'theirs', other.headers)).statusCode).toBe(403);
    expect((await create(owner, 'anon', {} as LoggedIn['headers'])).statusCode).toBe(401);
    expect((await revoke(owner.id, created.id, other.headers)).statusCode).toBe(403);
    // Another user naming the owner's token under their own account finds nothing to revoke.
    expect((await revoke(other.id, created.id, other.headers)).statusCode).toBe(404);
    expect((await read('198.51.100.1', created.token)).statusCode).toBe(200);
    const names = ApiTokenListResponseSchema.parse((await list(owner.id, owner.headers)).json());
    expect(names.map((t) => t.id)).toContain(created.id);
  });

  it('refuses empty and over-long names, and a token past the per-user cap', async () => {
    expect((await create(owner, '   ')).statusCode).toBe(400);
    expect((await create(owner, 'x'.repeat(61))).statusCode).toBe(400);
    const user = await loggedInUser(server);
    for (let i = 0; i < API_TOKENS_PER_USER; i += 1) await newToken(user, `script ${i}`);
    const over = await create(user, 'one too many');
    expect(over.statusCode).toBe(409);
    expect(over.json<{ error: string }>().error).toContain('Revoke one');
    const listed = ApiTokenListResponseSchema.parse((await list(user.id, user.headers)).json());
    expect(listed).toHaveLength(API_TOKENS_PER_USER);
    // Revoking frees a place.
    expect((await revoke(user.id, listed[0]?.id ?? '', user.headers)).statusCode).toBe(200);
    expect((await create(user, 'replacement')).statusCode).toBe(200);
  });

  it('gives a token its own, higher limit while anonymous reads keep the per-address one', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < PER_ADDRESS; i += 1) expect((await read(address)).statusCode).toBe(200);
    const refused = await read(address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();

    // Same address, with a token: the token's own budget, larger than the address's.
    const { token } = await newToken(owner, 'cron job');
    const withToken = [];
    for (let i = 0; i < PER_TOKEN + 1; i += 1)
      withToken.push((await read(address, token)).statusCode);
    expect(withToken.slice(0, PER_TOKEN)).toEqual(Array(PER_TOKEN).fill(200));
    expect(withToken[PER_TOKEN]).toBe(429);
    // The budget follows the token, not the address; other tokens and addresses are untouched.
    expect((await read('198.51.100.77', token)).statusCode).toBe(429);
    expect((await read('198.51.100.77', (await newToken(owner, 'other')).token)).statusCode).toBe(
      200,
    );
    expect((await read('198.51.100.78')).statusCode).toBe(200);
    // The operator's own tools on loopback are not counted.
    for (let i = 0; i < PER_ADDRESS * 2; i += 1)
      expect((await read('127.0.0.1')).statusCode).toBe(200);
  });

  it('answers 401 for unknown, malformed and revoked tokens, never a 500', async () => {
    const address = '192.0.2.40';
    const { id, token } = await newToken(owner, 'to revoke');
    expect((await read(address, token, '/v1/stations')).statusCode).toBe(200);
    expect((await revoke(owner.id, id, owner.headers)).statusCode).toBe(200);
    const revoked = await read(address, token, '/v1/stations');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.headers['www-authenticate']).toContain('invalid_token');
    const bad = [`tgs_${'A'.repeat(43)}`, 'not-a-token', '', 'x'.repeat(5000), `${token}x`];
    const codes = [];
    for (const text of bad)
      codes.push((await read('192.0.2.41', text, '/v1/satellites')).statusCode);
    expect(codes).toEqual(bad.map(() => 401));
    // Other schemes are not tokens: the request is anonymous.
    const basic = await server.app.inject({
      method: 'GET',
      url: '/v1/statistics',
      remoteAddress: '192.0.2.42',
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(200);
  });

  it('counts failed token guesses against the guessing address', async () => {
    const address = '192.0.2.99';
    const codes = [];
    for (let i = 0; i < PER_ADDRESS + 2; i += 1)
      codes.push((await read(address, `tgs_${String(i).padStart(43, 'x')}`)).statusCode);
    expect(codes.slice(0, PER_ADDRESS)).toEqual(Array(PER_ADDRESS).fill(401));
    expect(codes.slice(PER_ADDRESS)).toEqual([429, 429]);
  });

  it('records last use and logs the token by id and name, never the token', async () => {
    const { id, token } = await newToken(owner, 'Logged script');
    logLines.length = 0;
    expect((await read('198.51.100.5', token, '/v1/satellites')).statusCode).toBe(200);
    const listed = ApiTokenListResponseSchema.parse((await list(owner.id, owner.headers)).json());
    expect(listed.find((t) => t.id === id)?.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
    const completed = logLines
      .map((l) => JSON.parse(l) as { msg: string; apiToken?: { id: string; name: string } })
      .filter((l) => l.msg === 'request completed');
    expect(
      completed.some((l) => l.apiToken?.id === id && l.apiToken.name === 'Logged script'),
    ).toBe(true);
    expect(logLines.join('\n')).not.toContain(token);
    expect(logLines.join('\n')).not.toContain(token.slice(8));
  });

  it('documents the bearer scheme on the public reads in OpenAPI', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    }>();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const path of ['/v1/stations', '/v1/statistics', '/v2/packets', '/v1/station/{id}']) {
      expect(doc.paths[path]?.get?.security, path).toEqual([{}, { apiToken: [] }]);
    }
    expect(doc.paths['/v1/user/{userId}/tokens']?.post).toBeDefined();
    expect(doc.paths['/v1/user/{userId}/tokens/{tokenId}']?.delete).toBeDefined();
  });
});
