// The User Console's data: e-mail preferences with the form's rules, validation of a new address by
// a mailed link, and the broker credentials; each readable and writable only by its owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/lib/crypto';
import { loggedInUser, mailsTo, validationLinkIn, waitForMail } from './accounts-support';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

describe.each(DIALECTS)('profile and broker credentials on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const save = (userId: string, headers: Record<string, string>, payload: object) =>
    server.app.inject({ method: 'PUT', url: `/v1/user/${userId}`, headers, payload });

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
    });
  });

  it('saves preferences, strips tags and validates a new address by its mailed link', async () => {
    const user = await loggedInUser(server, { email: 'old@example.org' });
    const res = await save(user.id, user.headers, {
      email: '<b>New@Example.org</b>',
      acceptedTerms: true,
      newsletterFrequency: 'weekly',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email: 'new@example.org',
      newsletterFrequency: 'weekly',
      acceptedTerms: true,
      emailVal: false,
    });

    const link = validationLinkIn(await waitForMail(server, 'new@example.org'));
    expect(link.origin).toBe(server.ctx.config.publicUrl);
    const opened = await server.app.inject({
      method: 'GET',
      url: `${link.pathname}${link.search}`,
    });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toContain('text/html');
    expect(opened.body).toContain('validated');
    const after = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(after.json().emailVal).toBe(true);

    // A validation link works once.
    const again = await server.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(again.statusCode).toBe(400);
    // Saving the same validated address sends nothing new and keeps it validated.
    const same = await save(user.id, user.headers, {
      email: 'new@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'daily',
    });
    expect(same.json()).toMatchObject({ emailVal: true, newsletterFrequency: 'daily' });
    expect(mailsTo(server, 'new@example.org')).toHaveLength(1);
  });

  it('does not validate an address that changed again before the link was opened', async () => {
    const user = await loggedInUser(server, { email: 'first@example.org' });
    await save(user.id, user.headers, {
      email: 'second@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'none',
    });
    const link = validationLinkIn(await waitForMail(server, 'second@example.org'));
    await save(user.id, user.headers, {
      email: 'third@example.org',
      acceptedTerms: true,
      newsletterFrequency: 'none',
    });
    const opened = await server.app.inject({
      method: 'GET',
      url: `${link.pathname}${link.search}`,
    });
    expect(opened.statusCode).toBe(400);
    const profile = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(profile.json()).toMatchObject({ email: 'third@example.org', emailVal: false });
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
