// With SMTP_URL set, login links really go out over SMTP. The SMTP server here is started by the
// test (the outer edge); everything from the HTTP request to the SMTP conversation is the product.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha } from './accounts-support';
import { buildUser } from './factories';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp';
import { startTestServer, type TestServer } from './harness';
import { waitFor } from './network-helpers';

describe('login mail over SMTP', () => {
  let smtp: FakeSmtp;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    server = await startTestServer('sqlite', {
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Ground network <noreply@example.org>',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it('delivers a working single-use login link to the registered address', async () => {
    const user = await buildUser(server.ctx.database.db, { email: 'owner@example.org' });
    const res = await server.app.inject({
      method: 'POST',
      url: '/weblogin/',
      payload: { email: 'owner@example.org', captcha: await solveCaptcha(server) },
    });
    expect(res.statusCode).toBe(200);

    const mail = await waitFor(() => smtp.to('owner@example.org')[0], 10_000);
    expect(mail.from).toBe('noreply@example.org');
    const body = mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const match = /loginToken=([\w-]+)&userId=(\d+)/.exec(body);
    expect(match?.[2]).toBe(user.id);

    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { loginToken: match?.[1], userId: user.id },
    });
    expect(login.statusCode).toBe(200);
    expect(typeof login.json().sessionToken).toBe('string');
    // The mail went out over SMTP, not into the outbox folder.
    expect(existsSync(join(server.ctx.config.dataDir, 'outbox'))).toBe(false);
    // The link is single use.
    const again = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { loginToken: match?.[1], userId: user.id },
    });
    expect(again.statusCode).toBe(401);
  });
});
