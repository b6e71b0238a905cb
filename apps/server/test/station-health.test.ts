// Station health as an owner and a visitor meet it: every online/offline transition the broker
// causes is recorded with its cause, GET /v1/station/{id}/health gives the timeline, uptime and
// packets per day for 7 and 30 days, and transitions past the retention window are folded into
// days without losing what the station's state was.
import {
  LAST_WILL_PAYLOAD,
  StationHealthResponseSchema,
  lastWillTopic,
  type StationHealth,
} from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldOldTransitions, HEALTH_RAW_RETENTION_DAYS } from '../src/health/retention';
import { DAY_MS, startOfUtcDay } from '../src/health/uptime';
import { createNetworkPart } from '../src/network/part';
import { insertStatusEvents } from '../src/repositories/station-health';
import { buildStation, buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { connectStation, publishTele, waitFor } from './network-helpers';

const HOUR = 3_600_000;

describe.each(DIALECTS)('station health on %s', (dialect) => {
  let server: TestServer;
  let storedOnlineId: string;
  const storedLastSeen = Date.now() - 2 * HOUR;

  beforeAll(async () => {
    // A station stored as online before the server starts: the previous server stopped under it.
    server = await startTestServer(dialect, {
      parts: [
        {
          name: 'stored-online-station',
          async start(ctx) {
            const user = await buildUser(ctx.database.db);
            storedOnlineId = await buildStation(ctx.database.db, {
              name: 'Before_Restart',
              userId: user.id,
              status: 1,
              lastSeen: storedLastSeen,
              creationDate: Date.now() - 3 * DAY_MS,
            });
            return null;
          },
        },
        createNetworkPart({ flushIntervalMs: 20, offlineSweepMs: 100, offlineAfterMs: 1_500 }),
      ],
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const health = async (id: string, days = '7'): Promise<StationHealth> => {
    const res = await server.app.inject({
      method: 'GET',
      url: `/v1/station/${id}/health?days=${days}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return StationHealthResponseSchema.parse(res.json());
  };
  const status = async (id: string) =>
    (
      await server.ctx.database.db
        .selectFrom('stations')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirst()
    )?.status;

  it('records connect, last will, disconnect, ping time-out and renewed activity with their times', async () => {
    const user = await buildUser(server.ctx.database.db);
    const id = `Health_GS@${user.id}`;
    const t0 = Date.now();
    let client = await connectStation(server, user, 'Health_GS');
    await waitFor(async () => (await status(id)) === 1);
    // The broker delivers the firmware's last will.
    await client.publishAsync(lastWillTopic(user.id, 'Health_GS'), LAST_WILL_PAYLOAD, { qos: 1 });
    await waitFor(async () => (await status(id)) === 0);
    await client.endAsync();

    client = await connectStation(server, user, 'Health_GS');
    await waitFor(async () => (await status(id)) === 1);
    await client.endAsync();
    await waitFor(async () => (await status(id)) === 0);

    const quiet = await connectStation(server, user, 'Health_GS');
    await waitFor(async () => (await status(id)) === 1);
    await waitFor(async () => (await status(id)) === 0, 5_000);
    await publishTele(quiet, user, 'Health_GS', 'ping', { RSSI: -70, radio: 0 });
    await waitFor(async () => (await status(id)) === 1);

    const body = await health(id);
    expect(body.transitions.map((t) => [t.online, t.cause])).toEqual([
      [true, 'connect'],
      [false, 'last-will'],
      [true, 'connect'],
      [false, 'disconnect'],
      [true, 'connect'],
      [false, 'ping-timeout'],
      [true, 'activity'],
    ]);
    const times = body.transitions.map((t) => t.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(t0 - 1000);
    expect(times[6]).toBeLessThanOrEqual(Date.now());
    expect(body).toMatchObject({ stationId: id, days: 7, online: true, outages: 3 });
    expect(body.daily).toHaveLength(7);
    await quiet.endAsync();
  });

  it('marks stations that were online when the server stopped as offline at their last sign of life', async () => {
    const body = await health(storedOnlineId);
    expect(body.transitions[0]).toEqual({ at: storedLastSeen, online: false, cause: 'restart' });
    expect(body.online).toBe(false);
  });

  it('computes uptime per day and overall, and packets per day, over 7 and 30 days', async () => {
    const db = server.ctx.database.db;
    const user = await buildUser(db);
    const today = startOfUtcDay(Date.now());
    const day = (n: number) => today - n * DAY_MS;
    const id = await buildStation(db, {
      name: 'Uptime_GS',
      userId: user.id,
      status: 0,
      creationDate: day(40),
    });
    // Online from 10 days ago; offline 3 days ago at noon; back 2 days ago at 18:00; offline
    // again yesterday at 06:00 (and still offline).
    await insertStatusEvents(db, [
      { stationId: id, at: day(10), online: true, cause: 'connect' },
      { stationId: id, at: day(3) + 12 * HOUR, online: false, cause: 'ping-timeout' },
      { stationId: id, at: day(2) + 18 * HOUR, online: true, cause: 'connect' },
      { stationId: id, at: day(1) + 6 * HOUR, online: false, cause: 'last-will' },
    ]);
    await db
      .insertInto('stationDailyStats')
      .values([
        {
          stationId: id,
          day: new Date(day(3)).toISOString().slice(0, 10),
          satellite: 'Norbi',
          frames: 40,
        },
        {
          stationId: id,
          day: new Date(day(3)).toISOString().slice(0, 10),
          satellite: 'FEES',
          frames: 2,
        },
        {
          stationId: id,
          day: new Date(day(2)).toISOString().slice(0, 10),
          satellite: 'Norbi',
          frames: 14,
        },
      ])
      .execute();

    const week = await health(id);
    expect(week.from).toBe(day(6));
    expect(week.onlineAtStart).toBe(true);
    const byDay = new Map(week.daily.map((d) => [d.day, d]));
    const at = (n: number) => byDay.get(new Date(day(n)).toISOString().slice(0, 10));
    expect(at(4)).toEqual(expect.objectContaining({ uptimePercent: 100, packets: 0 }));
    expect(at(3)).toEqual(expect.objectContaining({ uptimePercent: 50, packets: 42 }));
    expect(at(2)).toEqual(expect.objectContaining({ uptimePercent: 25, packets: 14 }));
    expect(at(1)?.uptimePercent).toBe(25);
    expect(at(0)?.uptimePercent).toBe(0);
    expect(week.outages).toBe(2);
    expect(week.packetsPerDay).toBe(8);
    // 3.5 + 0.25 + 0.25 days online of 6 days and today's part so far.
    const known = 6 * DAY_MS + (Date.now() - today);
    expect(week.uptimePercent).toBeCloseTo(((4 * DAY_MS) / known) * 100, 0);
    expect(week.transitions).toHaveLength(3);

    const month = await health(id, '30');
    expect(month.daily).toHaveLength(30);
    expect(month.transitions).toHaveLength(4);
    // Offline until the first transition, which says so.
    expect(month.onlineAtStart).toBe(false);
    expect(
      month.daily.find((d) => d.day === new Date(day(20)).toISOString().slice(0, 10))
        ?.uptimePercent,
    ).toBe(0);
  });

  it('does not count time before the station existed', async () => {
    const db = server.ctx.database.db;
    const user = await buildUser(db);
    const created = startOfUtcDay(Date.now()) - 2 * DAY_MS + 12 * HOUR;
    const id = await buildStation(db, {
      name: 'New_GS',
      userId: user.id,
      status: 1,
      creationDate: created,
    });
    await insertStatusEvents(db, [{ stationId: id, at: created, online: true, cause: 'connect' }]);
    const body = await health(id);
    expect(body.uptimePercent).toBe(100);
    expect(body.daily.slice(0, 4).map((d) => d.uptimePercent)).toEqual([null, null, null, null]);
    expect(body.daily[4]?.uptimePercent).toBe(100);
  });

  it('folds transitions past the retention window into days and still knows the state', async () => {
    const db = server.ctx.database.db;
    const user = await buildUser(db);
    const now = Date.now();
    const today = startOfUtcDay(now);
    const old = today - (HEALTH_RAW_RETENTION_DAYS + 5) * DAY_MS;
    const id = await buildStation(db, {
      name: 'Old_GS',
      userId: user.id,
      status: 1,
      creationDate: old - DAY_MS,
    });
    await insertStatusEvents(db, [
      { stationId: id, at: old + 6 * HOUR, online: true, cause: 'connect' },
      { stationId: id, at: old + DAY_MS + 12 * HOUR, online: false, cause: 'disconnect' },
      { stationId: id, at: old + 2 * DAY_MS, online: true, cause: 'connect' },
      { stationId: id, at: today - 2 * DAY_MS, online: false, cause: 'ping-timeout' },
      { stationId: id, at: today - DAY_MS, online: true, cause: 'connect' },
    ]);
    const before = await health(id, '30');

    await foldOldTransitions(server.ctx, now);
    const left = await db
      .selectFrom('stationStatusEvents')
      .select('at')
      .where('stationId', '=', id)
      .execute();
    expect(left.map((r) => Number(r.at))).toEqual([today - 2 * DAY_MS, today - DAY_MS]);
    const days = await db
      .selectFrom('stationUptimeDaily')
      .selectAll()
      .where('stationId', '=', id)
      .orderBy('day')
      .execute();
    // Five days folded (the first from its first transition), up to the cutoff.
    expect(days).toHaveLength(5);
    expect(
      days.map((d) => [
        Number(d.onlineMs) / HOUR,
        Number(d.knownMs) / HOUR,
        d.outages,
        d.onlineAtEnd,
      ]),
    ).toEqual([
      [18, 18, 0, 1],
      [12, 24, 1, 0],
      [24, 24, 0, 1],
      [24, 24, 0, 1],
      [24, 24, 0, 1],
    ]);
    // The 30-day answer is the same: the state at its start now comes from the folded days.
    const after = await health(id, '30');
    expect(after.onlineAtStart).toBe(true);
    expect(after.uptimePercent).toBe(before.uptimePercent);
    expect(after.daily).toEqual(before.daily);

    // A later pass continues the days where they ended, up to its own cutoff.
    await foldOldTransitions(server.ctx, now + 89 * DAY_MS);
    const more = await db
      .selectFrom('stationUptimeDaily')
      .selectAll()
      .where('stationId', '=', id)
      .orderBy('day')
      .execute();
    expect(more).toHaveLength(94);
    const dayNumbers = more.map((d) => Date.parse(`${d.day}T00:00:00Z`) / DAY_MS);
    expect(dayNumbers).toEqual(dayNumbers.map((_, i) => (dayNumbers[0] ?? 0) + i));
    expect(more.at(-2)).toMatchObject({ onlineMs: DAY_MS, onlineAtEnd: 1 });
    expect(more.at(-1)).toMatchObject({ onlineMs: 0, outages: 1, onlineAtEnd: 0 });
  });

  it('refuses other windows and unknown stations', async () => {
    const bad = await server.app.inject({
      method: 'GET',
      url: `/v1/station/${storedOnlineId}/health?days=5`,
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await server.app.inject({ method: 'GET', url: '/v1/station/Nobody@1/health' });
    expect(unknown.statusCode).toBe(404);
  });
});
