// Secrets never reach the log. The real server process (its own logger, most verbose level, no
// SMTP) runs a whole e-mail login: the bot check, the link request, opening the link, the session
// exchange, authenticated calls, logout. The session token and MQTT password must never appear;
// the login token only in the one line that hands the link to a local operator without SMTP.
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  removeDataDir,
  startServerProcess,
  type ServerProcess,
} from '../../../e2e/src/server-process';
import { waitFor } from './network-helpers';

const DEMO_EMAIL = 'demo@tinygs.localhost';

describe('tokens in the server log', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess({
      env: { LOG_LEVEL: 'trace', LOG_FORMAT: 'json', SIMULATED_STATIONS: '0' },
    });
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    if (server) removeDataDir(server.dataDir);
  });

  it('logs the login token once, in the sanctioned line, and never the session token', async () => {
    const challenge = (await (await fetch(`${server.url}/altcha/challenge`)).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const requested = await fetch(`${server.url}/weblogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_EMAIL, captcha }),
    });
    expect(requested.status).toBe(200);

    const linkLine = await waitFor(
      () =>
        server
          .log()
          .split('\n')
          .find((l) => l.includes(`Login link for ${DEMO_EMAIL}`)),
      10_000,
    );
    const match = /https?:\/\/\S+\/\?loginToken=([\w-]+)&userId=(\d+)/.exec(linkLine);
    if (!match?.[1] || !match[2]) throw new Error(`no link in: ${linkLine}`);
    const [link, loginToken, userId] = [match[0], match[1], match[2]];

    // What the browser does with the link: open the page, then exchange the token.
    expect((await fetch(link)).status).toBe(200);
    const login = await fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginToken, userId }),
    });
    expect(login.status).toBe(200);
    const { sessionToken } = (await login.json()) as { sessionToken: string };
    expect(sessionToken.length).toBeGreaterThan(10);
    const headers = { userid: userId, sessiontoken: sessionToken };
    expect((await fetch(`${server.url}/v1/user?userId=${userId}`, { headers })).status).toBe(200);
    const cred = await fetch(`${server.url}/v1/mqttcred?userId=${userId}`, { headers });
    expect(cred.status).toBe(200);
    const { pass } = (await cred.json()) as { pass: string };
    // A replayed token is refused, and its refusal is logged without the token.
    const replay = await fetch(`${server.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginToken, userId }),
    });
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect((await fetch(`${server.url}/v1/logout`, { headers })).status).toBe(200);
    await server.kill('SIGTERM');

    const lines = server.log().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => l.includes(sessionToken))).toEqual([]);
    expect(lines.filter((l) => l.includes(pass))).toEqual([]);
    expect(lines.filter((l) => l.includes(loginToken))).toEqual([linkLine]);
  });
});
