// Helpers for the accounts suites: the browser's part of the login (solving the bot check), reading
// mails from the outbox folder, and a logged-in user made through the real login-link exchange.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { issueLoginLink } from '../src/accounts/login';
import { decodeQuotedPrintable } from './fake-smtp';
import { buildUser, type BuiltUser } from './factories';
import type { Server } from '../src/server';
import { waitFor } from './network-helpers';

/** Any assembled server: a TestServer or one built with createServer. */
type ServerLike = Pick<Server, 'app' | 'ctx'>;

/** What the ALTCHA widget does: fetch a challenge, solve it, send base64 JSON of both. */
export async function solveCaptcha(server: ServerLike): Promise<string> {
  const res = await server.app.inject({ method: 'GET', url: '/altcha/challenge' });
  if (res.statusCode !== 200) throw new Error(`challenge: ${res.statusCode}`);
  const challenge = res.json<Challenge>();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export interface OutboxMail {
  file: string;
  raw: string;
  /** headers and text with quoted-printable soft breaks and escapes undone */
  decoded: string;
}

export function outboxMails(server: ServerLike): OutboxMail[] {
  const dir = join(server.ctx.config.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(dir, file), 'utf8');
      return { file, raw, decoded: decodeQuotedPrintable(raw) };
    });
}

export function mailsTo(server: ServerLike, address: string): OutboxMail[] {
  return outboxMails(server).filter((m) => new RegExp(`^To: ${address}$`, 'mi').test(m.decoded));
}

/** Waits for the `n`-th mail to `address` (1-based) and answers it. */
export async function waitForMail(server: ServerLike, address: string, n = 1): Promise<OutboxMail> {
  return waitFor(() => mailsTo(server, address)[n - 1]);
}

export function loginLinkIn(mail: OutboxMail): URL {
  const match = /https?:\/\/\S+\/\?loginToken=[\w-]+&userId=\d+/.exec(mail.decoded);
  if (!match) throw new Error(`no login link in ${mail.file}`);
  return new URL(match[0]);
}

export function validationLinkIn(mail: OutboxMail): URL {
  const match = /https?:\/\/\S+\/v1\/user\/validate\?token=[\w-]+/.exec(mail.decoded);
  if (!match) throw new Error(`no validation link in ${mail.file}`);
  return new URL(match[0]);
}

export interface LoggedIn extends BuiltUser {
  sessionToken: string;
  headers: { userid: string; sessiontoken: string };
}

/** A user with a live session, obtained the way the web app obtains one (POST /v1/login). */
export async function loggedInUser(
  server: ServerLike,
  options: { email?: string } = {},
): Promise<LoggedIn> {
  const user = await buildUser(server.ctx.database.db, { email: options.email ?? null });
  const link = new URL(await issueLoginLink(server.ctx, user.id));
  const res = await server.app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { loginToken: link.searchParams.get('loginToken'), userId: user.id },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const sessionToken = res.json<{ sessionToken: string }>().sessionToken;
  return { ...user, sessionToken, headers: { userid: user.id, sessiontoken: sessionToken } };
}
