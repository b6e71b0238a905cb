// Offline alerts as an owner meets them: switched on in the e-mail preferences, a station that goes
// offline (last will, broker disconnect) is on its health timeline at once and its owner gets one
// alert mail (and a chat message) once the chosen delay has passed, one back note when it returns,
// no more than OFFLINE_ALERTS_PER_DAY alerts a day, and nothing without the switch. Mail goes over
// real SMTP to a test server and chat messages over HTTP to a test chat API (the outer edges); the
// job's clock is moved instead of waiting.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LAST_WILL_PAYLOAD,
  lastWillTopic,
  StationHealthResponseSchema,
  UserResponseSchema,
} from '@tinygs/contracts';
import { Api } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineAlertsPart, offlineAlertsRound } from '../src/health/offline-alerts';
import { DAY_MS, startOfUtcDay } from '../src/health/uptime';
import { createNetworkPart } from '../src/network/part';
import { insertStatusEvents } from '../src/repositories/station-health';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { startFakeSmtp, type FakeSmtp } from './fake-smtp';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, waitFor } from './network-helpers';

const MIN = 60_000;
const BOT_TOKEN = '123456:OFFLINE-ALERTS';

interface ChatMessage {
  chatId: string;
  text: string;
}

/** The chat platform's Bot API as far as sending a message goes. */
async function startFakeChatApi(): Promise<{
  url: string;
  messages: ChatMessage[];
  close(): Promise<void>;
}> {
  const messages: ChatMessage[] = [];
  const http: HttpServer = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== `/bot${BOT_TOKEN}/sendMessage`) {
        res.statusCode = 404;
        res.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
        return;
      }
      const payload = JSON.parse(body) as { chat_id: string | number; text: string };
      messages.push({ chatId: String(payload.chat_id), text: payload.text });
      const chat = { id: Number(payload.chat_id), type: 'private', first_name: 'Ada' };
      const result = { message_id: messages.length, date: 0, chat, text: payload.text };
      res.end(JSON.stringify({ ok: true, result }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    messages,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

let nextMail = 0;

describe.each(DIALECTS)('offline alerts on %s', (dialect) => {
  let server: TestServer;
  let smtp: FakeSmtp;
  let chatApi: Awaited<ReturnType<typeof startFakeChatApi>>;
  let bot: Api;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    chatApi = await startFakeChatApi();
    bot = new Api(BOT_TOKEN, { apiRoot: chatApi.url });
    server = await startTestServer(dialect, {
      env: { SMTP_URL: smtp.url, TELEGRAM_BOT_TOKEN: BOT_TOKEN, OFFLINE_ALERTS_PER_DAY: '3' },
      parts: [createNetworkPart({ flushIntervalMs: 20, offlineSweepMs: 100 })],
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await chatApi?.close();
  });

  const round = (now: number) => offlineAlertsRound(server.ctx, now, bot);
  const db = () => server.ctx.database.db;

  /** An owner with a session and an address of their own, linked to a chat. */
  async function owner(
    chat: 'private' | 'group' | 'none' = 'private',
  ): Promise<LoggedIn & { email: string }> {
    nextMail += 1;
    const email = `owner${nextMail}-${dialect}@example.org`;
    const user = await loggedInUser(server, { email });
    await db()
      .updateTable('users')
      .set({
        telegramChatId: { private: user.id, group: '-100123', none: null }[chat],
        emailVal: 1,
      })
      .where('id', '=', user.id)
      .execute();
    return { ...user, email };
  }

  async function choose(
    user: LoggedIn & { email: string },
    offlineAlerts: { enabled: boolean; delayMinutes: number },
  ) {
    return server.app.inject({
      method: 'PUT',
      url: `/v1/user/${user.id}`,
      headers: user.headers,
      payload: {
        email: user.email,
        acceptedTerms: true,
        newsletterFrequency: 'none',
        offlineAlerts,
      },
    });
  }

  const status = async (id: string) =>
    (await db().selectFrom('stations').select('status').where('id', '=', id).executeTakeFirst())
      ?.status;
  const subjects = (email: string) =>
    smtp.to(email).map((m) => /^Subject: (.*)$/m.exec(m.decoded)?.[1] ?? '');

  it('keeps the choice in the e-mail preferences, for the owner only, within the offered delays', async () => {
    const user = await owner();
    const before = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(UserResponseSchema.parse(before.json()).offlineAlerts).toEqual({
      enabled: false,
      delayMinutes: 120,
      viaBot: true,
    });
    const saved = await choose(user, { enabled: true, delayMinutes: 30 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(UserResponseSchema.parse(saved.json()).offlineAlerts).toMatchObject({
      enabled: true,
      delayMinutes: 30,
    });
    expect((await choose(user, { enabled: true, delayMinutes: 45 })).statusCode).toBe(400);
    // Another logged-in user cannot change it.
    const other = await owner();
    const foreign = await server.app.inject({
      method: 'PUT',
      url: `/v1/user/${user.id}`,
      headers: other.headers,
      payload: {
        email: user.email,
        acceptedTerms: true,
        newsletterFrequency: 'none',
        offlineAlerts: { enabled: false, delayMinutes: 1440 },
      },
    });
    expect(foreign.statusCode).toBeGreaterThanOrEqual(401);
    expect(foreign.statusCode).toBeLessThan(404);
    const after = await server.app.inject({
      method: 'GET',
      url: `/v1/user?userId=${user.id}`,
      headers: user.headers,
    });
    expect(UserResponseSchema.parse(after.json()).offlineAlerts).toMatchObject({
      enabled: true,
      delayMinutes: 30,
    });
  });

  it('alerts once when a switched-off station stays offline past the delay, and once when it is back', async () => {
    const user = await owner();
    expect((await choose(user, { enabled: true, delayMinutes: 30 })).statusCode).toBe(200);
    const id = `Alert_GS@${user.id}`;
    let client = await connectStation(server, user, 'Alert_GS');
    await waitFor(async () => (await status(id)) === 1);
    // Switched off: the broker delivers the last will, the connection is gone.
    await client.publishAsync(lastWillTopic(user.id, 'Alert_GS'), LAST_WILL_PAYLOAD, { qos: 1 });
    await client.endAsync();
    await waitFor(async () => (await status(id)) === 0);

    const health = await server.app.inject({ method: 'GET', url: `/v1/station/${id}/health` });
    const timeline = StationHealthResponseSchema.parse(health.json());
    expect(timeline.online).toBe(false);
    expect(timeline.outages).toBe(1);
    const wentOffline = timeline.transitions.at(-1);
    expect(wentOffline).toMatchObject({ online: false, cause: 'last-will' });
    const offAt = wentOffline?.at ?? 0;

    expect(await round(offAt + 29 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    expect(smtp.to(user.email)).toHaveLength(0);

    expect(await round(offAt + 31 * MIN)).toEqual({ alerts: 1, backNotes: 0 });
    expect(subjects(user.email)).toEqual(['TinyGS: station Alert_GS is offline']);
    const alert = smtp.to(user.email)[0]?.decoded ?? '';
    expect(alert).toContain('Station Alert_GS has been offline since');
    expect(alert).toContain(`/station/Alert_GS@${user.id}`);
    expect(chatApi.messages.filter((m) => m.chatId === user.id)).toHaveLength(1);

    // Later rounds, and a restarted job (the state is stored), send nothing more for this outage.
    expect(await round(offAt + 32 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    expect(await round(offAt + 3 * 60 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    expect(smtp.to(user.email)).toHaveLength(1);

    client = await connectStation(server, user, 'Alert_GS');
    await waitFor(async () => (await status(id)) === 1);
    expect(await round(offAt + 3 * 60 * MIN + MIN)).toEqual({ alerts: 0, backNotes: 1 });
    expect(await round(offAt + 3 * 60 * MIN + 2 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    expect(subjects(user.email)).toEqual([
      'TinyGS: station Alert_GS is offline',
      'TinyGS: station Alert_GS is back online',
    ]);
    expect(chatApi.messages.filter((m) => m.chatId === user.id).map((m) => m.text)).toEqual([
      expect.stringContaining('station Alert_GS is offline'),
      expect.stringContaining('station Alert_GS is back online'),
    ]);

    // Closing the connection is an outage of its own, alerted again.
    await client.endAsync();
    await waitFor(async () => (await status(id)) === 0);
    const second = StationHealthResponseSchema.parse(
      (await server.app.inject({ method: 'GET', url: `/v1/station/${id}/health` })).json(),
    ).transitions.at(-1);
    expect(second).toMatchObject({ online: false, cause: 'disconnect' });
    expect(await round((second?.at ?? 0) + 31 * MIN)).toEqual({ alerts: 1, backNotes: 0 });
    expect(smtp.to(user.email)).toHaveLength(3);
  });

  it('sends no more alerts than the daily limit, each followed by its back note', async () => {
    const user = await owner();
    expect((await choose(user, { enabled: true, delayMinutes: 30 })).statusCode).toBe(200);
    const id = await buildStation(db(), { name: 'Flaky_GS', userId: user.id, status: 1 });
    // Five outages tomorrow between 01:00 and 11:00 UTC, each two hours apart and 40 minutes long.
    const day = startOfUtcDay(Date.now()) + DAY_MS;
    const outage = async (start: number) => {
      await insertStatusEvents(db(), [
        { stationId: id, at: start, online: false, cause: 'last-will' },
      ]);
      await db().updateTable('stations').set({ status: 0 }).where('id', '=', id).execute();
      const alerted = await round(start + 31 * MIN);
      await insertStatusEvents(db(), [
        { stationId: id, at: start + 40 * MIN, online: true, cause: 'connect' },
      ]);
      await db().updateTable('stations').set({ status: 1 }).where('id', '=', id).execute();
      const back = await round(start + 41 * MIN);
      return [alerted.alerts, back.backNotes];
    };
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await outage(day + (1 + 2 * i) * 60 * MIN));
    expect(results).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
      [0, 0],
      [0, 0],
    ]);
    const mails = smtp.to(user.email);
    expect(mails).toHaveLength(6);
    expect(mails[4]?.decoded).toContain('This is your last offline alert today (at most 3 a day)');
    // The next day counts afresh.
    expect(await outage(day + DAY_MS + 60 * MIN)).toEqual([1, 1]);
  });

  it('tells an owner nothing without the switch, and nothing more once it is switched off', async () => {
    const silent = await owner();
    const id = await buildStation(db(), { name: 'Quiet_GS', userId: silent.id, status: 0 });
    const start = Date.now() + 60 * MIN;
    await insertStatusEvents(db(), [
      { stationId: id, at: start, online: false, cause: 'last-will' },
    ]);
    await round(start + DAY_MS);
    expect(smtp.to(silent.email)).toHaveLength(0);

    const leaving = await owner();
    expect((await choose(leaving, { enabled: true, delayMinutes: 120 })).statusCode).toBe(200);
    const gone = await buildStation(db(), { name: 'Gone_GS', userId: leaving.id, status: 0 });
    await insertStatusEvents(db(), [
      { stationId: gone, at: start, online: false, cause: 'disconnect' },
    ]);
    await round(start + 119 * MIN);
    expect(smtp.to(leaving.email)).toHaveLength(0);
    await round(start + 121 * MIN);
    expect(smtp.to(leaving.email)).toHaveLength(1);
    expect((await choose(leaving, { enabled: false, delayMinutes: 120 })).statusCode).toBe(200);
    await insertStatusEvents(db(), [
      { stationId: gone, at: start + 130 * MIN, online: true, cause: 'connect' },
    ]);
    await db().updateTable('stations').set({ status: 1 }).where('id', '=', gone).execute();
    await round(start + 131 * MIN);
    expect(smtp.to(leaving.email)).toHaveLength(1);
    // Switched off, a new outage is not alerted either.
    await insertStatusEvents(db(), [
      { stationId: gone, at: start + 140 * MIN, online: false, cause: 'disconnect' },
    ]);
    await db().updateTable('stations').set({ status: 0 }).where('id', '=', gone).execute();
    expect(await round(start + DAY_MS)).toEqual({ alerts: 0, backNotes: 0 });
    expect(smtp.to(leaving.email)).toHaveLength(1);
  });

  it('tries an alert the mail server refused again the next minute, and then sends it once', async () => {
    const user = await owner('none');
    expect((await choose(user, { enabled: true, delayMinutes: 30 })).statusCode).toBe(200);
    const id = await buildStation(db(), { name: 'Retry_GS', userId: user.id, status: 0 });
    const start = Date.now() + 60 * MIN;
    await insertStatusEvents(db(), [
      { stationId: id, at: start, online: false, cause: 'last-will' },
    ]);
    smtp.refused.add(user.email);
    expect(await round(start + 31 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    expect(await round(start + 32 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    smtp.refused.delete(user.email);
    expect(await round(start + 33 * MIN)).toEqual({ alerts: 1, backNotes: 0 });
    expect(await round(start + 34 * MIN)).toEqual({ alerts: 0, backNotes: 0 });
    expect(subjects(user.email)).toEqual(['TinyGS: station Retry_GS is offline']);
    // The refused tries did not use up the day's alerts.
    const counted = await db()
      .selectFrom('offlineAlertCounts')
      .select('sent')
      .where('userId', '=', user.id)
      .executeTakeFirst();
    expect(counted?.sent).toBe(1);
  });

  it('puts the stations found offline in one round in one mail, counted as one alert', async () => {
    const user = await owner('none');
    expect((await choose(user, { enabled: true, delayMinutes: 120 })).statusCode).toBe(200);
    const start = Date.now() + 60 * MIN;
    for (const [name, at] of [
      ['Roof_GS', start],
      ['Attic_GS', start + 5 * MIN],
    ] as const) {
      const id = await buildStation(db(), { name, userId: user.id, status: 0 });
      await insertStatusEvents(db(), [{ stationId: id, at, online: false, cause: 'disconnect' }]);
    }
    expect(await round(start + 126 * MIN)).toEqual({ alerts: 1, backNotes: 0 });
    expect(subjects(user.email)).toEqual(['TinyGS: 2 of your stations are offline']);
    const text = smtp.to(user.email)[0]?.decoded ?? '';
    expect(text).toContain('Station Roof_GS has been offline since');
    expect(text).toContain('Station Attic_GS has been offline since');
    const counted = await db()
      .selectFrom('offlineAlertCounts')
      .select('sent')
      .where('userId', '=', user.id)
      .executeTakeFirst();
    expect(counted?.sent).toBe(1);
  });

  it('sends chat messages to the owner’s private chat only, never to a group', async () => {
    const user = await owner('group');
    const saved = await choose(user, { enabled: true, delayMinutes: 30 });
    expect(UserResponseSchema.parse(saved.json()).offlineAlerts?.viaBot).toBe(false);
    const id = await buildStation(db(), { name: 'Group_GS', userId: user.id, status: 0 });
    const start = Date.now() + 60 * MIN;
    await insertStatusEvents(db(), [
      { stationId: id, at: start, online: false, cause: 'last-will' },
    ]);
    const before = chatApi.messages.length;
    expect(await round(start + 31 * MIN)).toEqual({ alerts: 1, backNotes: 0 });
    expect(smtp.to(user.email)).toHaveLength(1);
    expect(chatApi.messages.slice(before).map((m) => m.chatId)).not.toContain('-100123');
  });

  it('runs as a part on its own schedule, with the station names escaped in the mail', async () => {
    const user = await owner();
    expect((await choose(user, { enabled: true, delayMinutes: 30 })).statusCode).toBe(200);
    // Names are letters, digits and _ on the wire; the mail escapes whatever it gets all the same.
    const id = await buildStation(db(), { name: 'Evil<b>&"GS', userId: user.id, status: 0 });
    const start = Date.now() + 60 * MIN;
    await insertStatusEvents(db(), [
      { stationId: id, at: start, online: false, cause: 'last-will' },
    ]);
    let clock = start + 10 * MIN;
    const part = createOfflineAlertsPart({
      now: () => clock,
      intervalMs: 20,
      firstRunInMs: 0,
      botApiRoot: chatApi.url,
    });
    const running = await part.start(server.ctx);
    try {
      clock = start + 31 * MIN;
      const mail = await waitFor(() => smtp.to(user.email)[0]);
      const html = mail.decoded.slice(mail.decoded.indexOf('Content-Type: text/html'));
      expect(html).toContain('Station Evil&lt;b&gt;&amp;&quot;GS has been offline');
      expect(html).not.toContain('<b>&');
      await waitFor(() => chatApi.messages.some((m) => m.chatId === user.id));
    } finally {
      await running?.stop();
    }
    expect(smtp.to(user.email)).toHaveLength(1);
  });
});
