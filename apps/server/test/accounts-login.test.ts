// The whole e-mail login as a user meets it: bot check, login request, the mail in the outbox, the
// session, logout; and what an attacker meets: single-use and expiring tokens, identical answers for
// unknown addresses, rate limits.
import { CAPTCHA_ERRORS, LOGIN_TOKEN_TTL_MS, SESSION_TTL_MS } from '@tinygs/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tokenHousekeepingPart } from '../src/accounts/housekeeping';
import { WEBLOGIN_MESSAGE } from '../src/accounts/login';
import {
  loginLinkIn,
  loggedInUser,
  mailsTo,
  outboxMails,
  solveCaptcha,
  waitForMail,
} from './accounts-support';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

let addressCounter = 0;
/** Each test speaks from its own client address so that per-address limits do not leak between tests. */
function newAddress(): string {
  addressCounter += 1;
  return `10.1.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

describe.each(DIALECTS)('e-mail login on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function requestLogin(email: string, remoteAddress = newAddress(), captcha?: string) {
    return server.app.inject({
      method: 'POST',
      url: '/weblogin/',
      remoteAddress,
      payload: { email, captcha: captcha ?? (await solveCaptcha(server)) },
    });
  }

  it('serves signed, expiring bot-check challenges', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/altcha/challenge' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(body.parameters.algorithm).toBe('SHA-256');
    expect(body.parameters.expiresAt * 1000).toBeGreaterThan(Date.now());
  });

  it('logs in through the mailed link and out again', async () => {
    const user = await buildUser(server.ctx.database.db, { email: 'ada@example.org' });
    const requested = await requestLogin('Ada@Example.org');
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toEqual({ message: WEBLOGIN_MESSAGE });

    const mail = await waitForMail(server, 'ada@example.org');
    expect(mail.decoded).toMatch(/^Subject: Your TinyGS login link$/m);
    expect(mail.decoded).toContain('Content-Type: text/html');
    const link = loginLinkIn(mail);
    expect(link.origin).toBe(server.ctx.config.publicUrl);
    expect(link.searchParams.get('userId')).toBe(user.id);
    const loginToken = link.searchParams.get('loginToken') ?? '';
    expect(Buffer.from(loginToken, 'base64url')).toHaveLength(32);

    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { loginToken, userId: user.id },
    });
    expect(login.statusCode).toBe(200);
    const { sessionToken } = login.json();
    const headers = { userid: user.id, sessiontoken: sessionToken };
    // Only hashes are stored: neither token appears in the database.
    const stored = JSON.stringify([
      await server.ctx.database.db.selectFrom('sessions').selectAll().execute(),
      await server.ctx.database.db.selectFrom('loginTokens').selectAll().execute(),
    ]);
    expect(stored).not.toContain(sessionToken);
    expect(stored).not.toContain(loginToken);

    const profile = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers,
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().email).toBe('ada@example.org');

    const logout = await server.app.inject({ method: 'GET', url: '/v1/logout', headers });
    expect(logout.statusCode).toBe(200);
    const after = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers,
    });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBeTruthy();
  });

  it('accepts a login token once only', async () => {
    const user = await buildUser(server.ctx.database.db, { email: 'once@example.org' });
    await requestLogin('once@example.org');
    const link = loginLinkIn(await waitForMail(server, 'once@example.org'));
    const payload = { loginToken: link.searchParams.get('loginToken'), userId: user.id };
    const first = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload,
      remoteAddress: newAddress(),
    });
    expect(first.statusCode).toBe(200);
    const second = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload,
      remoteAddress: newAddress(),
    });
    expect(second.statusCode).toBe(401);
    expect(second.json().error).toMatch(/invalid|used|expired/);
    const otherUser = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { ...payload, userId: '12345' },
      remoteAddress: newAddress(),
    });
    expect(otherUser.statusCode).toBe(401);
  });

  it('refuses a login token after 15 minutes and a session after 30 days', async () => {
    const user = await buildUser(server.ctx.database.db, { email: 'late@example.org' });
    await requestLogin('late@example.org');
    const link = loginLinkIn(await waitForMail(server, 'late@example.org'));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + LOGIN_TOKEN_TTL_MS + 1000);
    const late = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { loginToken: link.searchParams.get('loginToken'), userId: user.id },
      remoteAddress: newAddress(),
    });
    expect(late.statusCode).toBe(401);
    vi.useRealTimers();

    const session = await loggedInUser(server);
    const fresh = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${session.id}`,
      headers: session.headers,
    });
    expect(fresh.statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SESSION_TTL_MS + 1000);
    const stale = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${session.id}`,
      headers: session.headers,
    });
    expect(stale.statusCode).toBe(401);
  });

  it('deletes expired sessions and tokens in housekeeping', async () => {
    const session = await loggedInUser(server);
    const db = server.ctx.database.db;
    const count = async () =>
      (await db.selectFrom('sessions').select('userId').where('userId', '=', session.id).execute())
        .length;
    expect(await count()).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SESSION_TTL_MS + 1000);
    const running = await tokenHousekeepingPart.start(server.ctx);
    await running?.stop();
    expect(await count()).toBe(0);
  });

  it('answers registered and unknown addresses identically, mailing only the registered one', async () => {
    await buildUser(server.ctx.database.db, { email: 'known@example.org' });
    const known = await requestLogin('known@example.org');
    const unknown = await requestLogin('stranger@example.org');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    await waitForMail(server, 'known@example.org');
    // The unknown address's request had as long to produce a mail as the known one's.
    await new Promise((r) => setTimeout(r, 200));
    expect(mailsTo(server, 'stranger@example.org')).toHaveLength(0);
  });

  it('allows one request per e-mail address per 30 seconds', async () => {
    const first = await requestLogin('busy@example.org');
    expect(first.statusCode).toBe(200);
    const again = await requestLogin('busy@example.org');
    expect(again.statusCode).toBe(429);
    expect(again.headers['content-type']).toContain('application/json');
    expect(again.json().error).toMatch(/30 seconds/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect((await requestLogin('calm@example.org')).statusCode).toBe(200);
  });

  it('limits login requests per client address', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i += 1) {
      expect((await requestLogin(`many${i}@example.org`, address)).statusCode).toBe(200);
    }
    const over = await requestLogin('many-more@example.org', address);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatch(/Too many/);
    expect((await requestLogin('many-more@example.org', newAddress())).statusCode).toBe(200);
  });

  it('refuses reused, forged, expired and missing bot-check solutions', async () => {
    const captcha = await solveCaptcha(server);
    expect((await requestLogin('bot1@example.org', newAddress(), captcha)).statusCode).toBe(200);
    const reused = await requestLogin('bot2@example.org', newAddress(), captcha);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe(CAPTCHA_ERRORS.error);

    const fresh = JSON.parse(Buffer.from(await solveCaptcha(server), 'base64').toString());
    const wrongKey = { ...fresh, solution: { ...fresh.solution, derivedKey: 'ab'.repeat(32) } };
    const forgedKey = await requestLogin(
      'bot3@example.org',
      newAddress(),
      Buffer.from(JSON.stringify(wrongKey)).toString('base64'),
    );
    expect(forgedKey.statusCode).toBe(400);
    expect(forgedKey.json().error).toBe(CAPTCHA_ERRORS.error);
    const easier = {
      ...fresh,
      challenge: {
        ...fresh.challenge,
        parameters: { ...fresh.challenge.parameters, keyPrefix: '0' },
      },
    };
    const tampered = await requestLogin(
      'bot4@example.org',
      newAddress(),
      Buffer.from(JSON.stringify(easier)).toString('base64'),
    );
    expect(tampered.json().error).toBe(CAPTCHA_ERRORS.error);
    const garbage = await requestLogin('bot5@example.org', newAddress(), 'not-a-solution');
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().error).toBe(CAPTCHA_ERRORS.error);

    const old = await solveCaptcha(server);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    const expired = await requestLogin('bot6@example.org', newAddress(), old);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toBe(CAPTCHA_ERRORS.expired);
    vi.useRealTimers();

    const missing = await server.app.inject({
      method: 'POST',
      url: '/weblogin/',
      payload: { email: 'bot7@example.org' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain(CAPTCHA_ERRORS.error);
    expect(outboxMails(server).some((m) => /bot[2-7]@example\.org/.test(m.decoded))).toBe(false);
  });

  it('checks the e-mail with the form rules', async () => {
    const empty = await requestLogin('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toContain('Email is required');
    const bad = await requestLogin('not-an-address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Invalid email format');
  });

  it('rate-limits failed logins per client address', async () => {
    const address = newAddress();
    for (let i = 0; i < 20; i += 1) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v1/login',
        remoteAddress: address,
        payload: { loginToken: `guess-${i}`, userId: '1' },
      });
      expect(res.statusCode).toBe(401);
    }
    const session = await buildUser(server.ctx.database.db, { email: 'patient@example.org' });
    await requestLogin('patient@example.org');
    const link = loginLinkIn(await waitForMail(server, 'patient@example.org'));
    const blocked = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress: address,
      payload: { loginToken: link.searchParams.get('loginToken'), userId: session.id },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatch(/failed logins/);
  });

  it('answers calls without a valid session with 401 JSON', async () => {
    const user = await loggedInUser(server);
    const cases = [
      {},
      { userid: user.id },
      { userid: user.id, sessiontoken: 'wrong' },
      { userid: '999', sessiontoken: user.sessionToken },
    ];
    for (const headers of cases) {
      const res = await server.app.inject({ method: 'GET', url: '/v1/logout', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    // None of those attempts ended the real session.
    const still = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(still.statusCode).toBe(200);
  });
});
