// With SMTP_URL set, login links really go out over SMTP. The SMTP server here is started by the
// test (the outer edge); everything from the HTTP request to the SMTP conversation is the product.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha } from './accounts-support';
import { buildUser } from './factories';
import { startTestServer, type TestServer } from './harness';
import { waitFor } from './network-helpers';

interface Received {
  from: string;
  to: string[];
  data: string;
}

describe('login mail over SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    server = await startTestServer('sqlite', {
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Ground network <noreply@example.org>',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers a working single-use login link to the registered address', async () => {
    const user = await buildUser(server.ctx.database.db, { email: 'owner@example.org' });
    const res = await server.app.inject({
      method: 'POST',
      url: '/weblogin/',
      payload: { email: 'owner@example.org', captcha: await solveCaptcha(server) },
    });
    expect(res.statusCode).toBe(200);

    const mail = await waitFor(
      () => received.find((m) => m.to.includes('owner@example.org')),
      10_000,
    );
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
