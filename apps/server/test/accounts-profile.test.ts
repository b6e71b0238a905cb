// The User Console's data: e-mail preferences with the form's rules, validation of a new address by
// a mailed link, and the broker credentials; each readable and writable only by its owner.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueLoginLink } from '../src/accounts/login';
import { LOGGED_OUT_EVERYWHERE } from '../src/accounts/routes/profile-routes';
import { decryptSecret } from '../src/lib/crypto';
import {
  loggedInUser,
  loginLinkIn,
  mailsTo,
  solveCaptcha,
  validationLinkIn,
  waitForMail,
  type LoggedIn,
} from './accounts-support';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

/** What an account has until its owner switches offline alerts on (no chat bot configured). */
const NO_OFFLINE_ALERTS = { enabled: false, delayMinutes: 120, viaBot: false };

describe.each(DIALECTS)('profile and broker credentials on %s', (dialect) => {
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

  const save = (userId: string, headers: Record<string, string>, payload: object) =>
    server.app.inject({ method: 'PUT', url: `/v1/user/${userId}`, headers, payload });
  const profileResponse = (userId: string, headers: Record<string, string>) =>
    server.app.inject({ method: 'GET', url: `/v1/user?userId=${userId}`, headers });
  const profile = async (user: LoggedIn) =>
    (await profileResponse(user.id, user.headers)).json<Record<string, unknown>>();
  const logoutAll = (userId: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'POST', url: `/v1/user/${userId}/logout-all`, headers });
  /** POST /v1/login with the token of a login link, as the web app does when the link opens. */
  const useLoginLink = (link: URL, userId: string) =>
    server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { loginToken: link.searchParams.get('loginToken'), userId },
    });
  /** One more session of the user, from a login link of its own (another browser). */
  const anotherSession = async (userId: string) => {
    const res = await useLoginLink(new URL(await issueLoginLink(server.ctx, userId)), userId);
    return { userid: userId, sessiontoken: res.json<{ sessionToken: string }>().sessionToken };
  };
  /** Saves a new address and answers the validation link mailed to it. */
  const requestChange = async (user: LoggedIn, email: string) => {
    await save(user.id, user.headers, { email, acceptedTerms: true, newsletterFrequency: 'none' });
    return validationLinkIn(await waitForMail(server, email));
  };
  const openLink = (link: URL) =>
    server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  let addressCounter = 0;
  /** POST /weblogin from a client address of its own, as the login dialog sends it. */
  const requestLogin = async (email: string) => {
    addressCounter += 1;
    const res = await server.app.inject({
      method: 'POST',
      url: '/weblogin',
      remoteAddress: `10.30.0.${addressCounter}`,
      payload: { email, captcha: await solveCaptcha(server) },
    });
    expect(res.statusCode).toBe(200);
  };

  it('answers the owner’s preferences', async () => {
    const user = await loggedInUser(server, { email: 'grace@example.org' });
    const res = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email: 'grace@example.org',
      newsletterFrequency: 'none',
      acceptedTerms: false,
      emailVal: false,
      offlineAlerts: NO_OFFLINE_ALERTS,
    });
  });

  it('keeps logging in on the old address until the new one’s link is opened, and tells the old one', async () => {
    const user = await loggedInUser(server, { email: 'old@example.org' });
    const res = await save(user.id, user.headers, {
      email: '<b>New@Example.org</b>',
      acceptedTerms: true,
      newsletterFrequency: 'weekly',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email: 'old@example.org',
      pendingEmail: 'new@example.org',
      newsletterFrequency: 'weekly',
      acceptedTerms: true,
      emailVal: false,
      offlineAlerts: NO_OFFLINE_ALERTS,
    });
    const notice = await waitForMail(server, 'old@example.org');
    expect(notice.decoded).toContain('asked to change its login address');
    expect(notice.decoded).toContain('new@example.org');

    // Until the link is opened a login link goes to the old address only.
    await requestLogin('new@example.org');
    await requestLogin('old@example.org');
    loginLinkIn(await waitForMail(server, 'old@example.org', 2));
    const link = validationLinkIn(await waitForMail(server, 'new@example.org'));
    expect(mailsTo(server, 'new@example.org')).toHaveLength(1);
    expect(link.origin).toBe(server.ctx.config.publicUrl);

    const opened = await openLink(link);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toContain('text/html');
    expect(opened.body).toContain('this is now your login address');
    expect(await profile(user)).toEqual({
      email: 'new@example.org',
      newsletterFrequency: 'weekly',
      acceptedTerms: true,
      emailVal: true,
      offlineAlerts: NO_OFFLINE_ALERTS,
    });
    const made = await waitForMail(server, 'old@example.org', 3);
    expect(made.decoded).toContain('login address of your');
    expect(made.decoded).toContain('is now new@example.org');
    // (past the 30-s wait between login links to one address)
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000);
    await requestLogin('new@example.org');
    loginLinkIn(await waitForMail(server, 'new@example.org', 2));

    // A validation link works once.
    const again = await openLink(link);
    expect(again.statusCode).toBe(400);
    // Saving the same validated address sends nothing new and keeps it validated.
    const same = await save(user.id, user.headers, {
      email: 'new@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'daily',
    });
    expect(same.json()).toMatchObject({ emailVal: true, newsletterFrequency: 'daily' });
    expect(mailsTo(server, 'new@example.org')).toHaveLength(2);
  });

  it('logs out every other session when the change is confirmed, keeping the one that asked', async () => {
    const asking = await loggedInUser(server, { email: 'sessions@example.org' });
    const second = await anotherSession(asking.id);
    const third = await anotherSession(asking.id);
    const unused = new URL(await issueLoginLink(server.ctx, asking.id));
    await save(asking.id, asking.headers, {
      email: 'sessions-new@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'none',
    });
    // Nothing ends before the confirmation.
    for (const headers of [asking.headers, second, third])
      expect((await profileResponse(asking.id, headers)).statusCode).toBe(200);
    const link = validationLinkIn(await waitForMail(server, 'sessions-new@example.org'));
    await openLink(link);

    expect((await profileResponse(asking.id, asking.headers)).statusCode).toBe(200);
    for (const headers of [second, third])
      expect((await profileResponse(asking.id, headers)).statusCode).toBe(401);
    // A login link mailed to the old address before the change no longer works.
    expect((await useLoginLink(unused, asking.id)).statusCode).toBe(401);
  });

  it('does not apply an address that changed again before the link was opened', async () => {
    const user = await loggedInUser(server, { email: 'first@example.org' });
    const link = await requestChange(user, 'second@example.org');
    await save(user.id, user.headers, {
      email: 'third@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'none',
    });
    const opened = await openLink(link);
    expect(opened.statusCode).toBe(400);
    expect(await profile(user)).toMatchObject({
      email: 'first@example.org',
      pendingEmail: 'third@example.org',
      emailVal: false,
    });
  });

  it('cancels a pending change when the current address is saved again', async () => {
    const user = await loggedInUser(server, { email: 'keep@example.org' });
    const second = await anotherSession(user.id);
    const link = await requestChange(user, 'intruder@example.org');
    const kept = await save(user.id, second, {
      email: 'keep@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'none',
    });
    expect(kept.json()).not.toHaveProperty('pendingEmail');
    const opened = await openLink(link);
    expect(opened.statusCode).toBe(400);
    expect(await profile(user)).toMatchObject({ email: 'keep@example.org' });
    expect((await profileResponse(user.id, second)).statusCode).toBe(200);
  });

  it('does not apply an address another account took in the meantime', async () => {
    const user = await loggedInUser(server, { email: 'slow@example.org' });
    const link = await requestChange(user, 'contested@example.org');
    await buildUser(server.ctx.database.db, { email: 'contested@example.org' });
    const opened = await openLink(link);
    expect(opened.statusCode).toBe(400);
    expect(opened.body).toContain('used by another account');
    const after = await profile(user);
    expect(after).toMatchObject({ email: 'slow@example.org' });
    expect(after).not.toHaveProperty('pendingEmail');
  });

  it('logs out everywhere: every session of the user ends, this one included', async () => {
    const user = await loggedInUser(server, { email: 'everywhere@example.org' });
    const second = await anotherSession(user.id);
    const bystander = await loggedInUser(server);
    const unused = new URL(await issueLoginLink(server.ctx, user.id));
    const res = await logoutAll(user.id, user.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: LOGGED_OUT_EVERYWHERE });
    for (const headers of [user.headers, second])
      expect((await profileResponse(user.id, headers)).statusCode).toBe(401);
    expect((await useLoginLink(unused, user.id)).statusCode).toBe(401);
    expect((await profileResponse(bystander.id, bystander.headers)).statusCode).toBe(200);
  });

  it('refuses invalid preferences with the form’s messages', async () => {
    const user = await loggedInUser(server, { email: 'rules@example.org' });
    const cases: [object, string][] = [
      [{ email: '', acceptedTerms: true, newsletterFrequency: 'none' }, 'E-mail is required'],
      [
        { email: '<i></i>', acceptedTerms: true, newsletterFrequency: 'none' },
        'E-mail is required',
      ],
      [
        { email: 'nobody', acceptedTerms: true, newsletterFrequency: 'none' },
        'E-mail must be valid',
      ],
      [
        { email: 'a@b.co', acceptedTerms: false, newsletterFrequency: 'none' },
        'You must accept the terms and conditions.',
      ],
      [
        { email: 'a@b.co', newsletterFrequency: 'none' },
        'You must accept the terms and conditions.',
      ],
      [
        { email: 'a@b.co', acceptedTerms: true, newsletterFrequency: 'hourly' },
        'newsletterFrequency',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await save(user.id, user.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    const profile = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(profile.json().email).toBe('rules@example.org');
  });

  it('refuses an address another account uses', async () => {
    await buildUser(server.ctx.database.db, { email: 'taken@example.org' });
    const user = await loggedInUser(server, { email: 'mine@example.org' });
    const res = await save(user.id, user.headers, {
      email: 'TAKEN@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'none',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/another account/);
  });

  it('answers the broker credentials the MQTT broker checks', async () => {
    const user = await loggedInUser(server);
    const res = await server.app.inject({
      method: 'GET',
      url: `/v1/mqttcred?userId=${user.id}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: user.id, pass: user.password });
    const row = await server.ctx.database.db
      .selectFrom('users')
      .select('mqttPasswordEnc')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.mqttPasswordEnc).not.toContain(user.password);
    expect(decryptSecret(row.mqttPasswordEnc, server.ctx.config.serverSecret)).toBe(user.password);
  });

  it('keeps profile and credentials to their owner', async () => {
    const owner = await loggedInUser(server, { email: 'owner@example.org' });
    const other = await loggedInUser(server);
    const body = { email: 'hijack@example.org', acceptedTerms: true, newsletterFrequency: 'none' };
    const calls = [
      { method: 'GET' as const, url: `/v1/user?userId=${owner.id}` },
      { method: 'GET' as const, url: `/v1/mqttcred?userId=${owner.id}` },
      { method: 'PUT' as const, url: `/v1/user/${owner.id}`, payload: body },
      { method: 'POST' as const, url: `/v1/user/${owner.id}/logout-all` },
    ];
    for (const call of calls) {
      const asOther = await server.app.inject({ ...call, headers: other.headers });
      expect(asOther.statusCode, call.url).toBe(403);
      const anonymous = await server.app.inject(call);
      expect(anonymous.statusCode, call.url).toBe(401);
      // Authorisation comes before validation: even a broken body tells an anonymous caller nothing.
      const broken = await server.app.inject({
        ...call,
        payload: call.method === 'PUT' ? { email: 1 } : undefined,
      });
      expect(broken.statusCode, call.url).toBe(401);
    }
    const profile = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${owner.id}`,
      headers: owner.headers,
    });
    expect(profile.json().email).toBe('owner@example.org');
  });

  it('answers bad query values with 400, not 500', async () => {
    const user = await loggedInUser(server);
    const res = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=abc`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(403);
    const own = await server.app.inject({ method: 'GET', url: `/v1/user`, headers: user.headers });
    expect(own.statusCode).toBe(400);
    const validate = await server.app.inject({ method: 'GET', url: `/v1/user/validate` });
    expect(validate.statusCode).toBe(400);
  });
});
