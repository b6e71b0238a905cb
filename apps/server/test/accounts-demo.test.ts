// What a newcomer sees after `npm start` with embedded defaults: a demo account whose login link is
// in the log, mails in the outbox with the link also logged, and no session token ever logged.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, demoUserPart } from '../src/accounts/demo-user';
import { mailPart } from '../src/mail/part';
import { createServer, type Server } from '../src/server';
import { solveCaptcha, waitForMail } from './accounts-support';
import { DIALECTS, testEnv, type TestEnv } from './harness';

describe.each(DIALECTS)('demo user and mail log on %s', (dialect) => {
  let env: TestEnv;
  let server: Server;
  const lines: string[] = [];

  beforeAll(async () => {
    env = await testEnv(dialect);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    server = await createServer(env.config, {
      log: pino({ level: 'info' }, sink),
      parts: [mailPart, demoUserPart],
    });
  });
  afterAll(async () => {
    await server?.close();
    await env?.cleanup();
  });

  const logged = () => lines.join('');

  it('creates the demo user once and logs a working login link', async () => {
    const match = /Log in within 15 minutes: (\S+?)"/.exec(logged());
    expect(match, logged()).not.toBeNull();
    const link = new URL(JSON.parse(`"${match?.[1] ?? ''}"`));
    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: {
        loginToken: link.searchParams.get('loginToken'),
        userId: link.searchParams.get('userId'),
      },
    });
    expect(login.statusCode).toBe(200);
    const { sessionToken } = login.json();
    const headers = { userid: link.searchParams.get('userId') ?? '', sessiontoken: sessionToken };
    const profile = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${headers.userid}`,
      headers,
    });
    expect(profile.json()).toMatchObject({ email: DEMO_EMAIL, emailVal: true });

    // Starting again (a restart) finds the same account.
    await demoUserPart.start(server.ctx);
    const users = await server.ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_EMAIL)
      .execute();
    expect(users).toEqual([{ id: headers.userid }]);
    expect(logged()).not.toContain(sessionToken);
  });

  it('logs the login link of a requested mail, and only that', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/weblogin/',
      payload: { email: DEMO_EMAIL, captcha: await solveCaptcha(server) },
    });
    expect(res.statusCode).toBe(200);
    await waitForMail(server, DEMO_EMAIL);
    expect(logged()).toContain(`Login link for ${DEMO_EMAIL}`);
    expect(logged()).toContain('mails are written to the outbox folder');
  });
});
