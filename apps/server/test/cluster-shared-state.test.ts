// Two server instances in one process on one PostgreSQL database and one Redis (REDIS_URL): a
// frame heard through both makes one packet, both instances' live streams carry every packet once,
// a station's ping stored through one shows in the other's station list at once, a login limit hit
// through one holds on the other, a used bot-check solution is refused by the other, and the jobs
// that run once move to the other instance when their holder stops or dies.
// Then Redis itself dies: what must hold across instances answers 503, the rest keeps working.
import { NewPacketEventSchema, StationsResponseSchema } from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elected } from '../src/cluster/lease';
import { createSharedStatePart } from '../src/cluster/shared-state';
import { createNetworkPart } from '../src/network/part';
import type { Part } from '../src/part';
import { STATION_LIST_MIN_REBUILD_MS } from '../src/read-models/station-list';
import { solveCaptcha } from './accounts-support';
import { buildUser, leoTle, setSatelliteTle } from './factories';
import { DIALECTS, testEnv, type TestEnv } from './harness';
import {
  connectStation,
  nextBusEvent,
  openEventStream,
  publishTele,
  rxPayload,
  waitFor,
} from './network-helpers';
import {
  REDIS_URL,
  deleteKeys,
  redisAvailable,
  privateRedis,
  redisPrefix,
  startInstance,
  type Instance,
  type PrivateRedis,
} from './cluster-helpers';

const LEASE = { ttlMs: 1_500, renewMs: 250 };
const frame = (text: string) => Buffer.from(`cluster ${text}`).toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** POST `url` from one client address. */
const post = (server: Instance, url: string, remoteAddress: string, payload: object) =>
  server.app.inject({ method: 'POST', url, remoteAddress, payload });

/** A job that must run once: which instances run it now. */
function probeJob(running: Set<string>): Part {
  return elected({
    name: 'probe',
    async start(ctx) {
      running.add(ctx.config.instanceId);
      return {
        async stop() {
          running.delete(ctx.config.instanceId);
        },
      };
    },
  });
}

function partsWith(running: Set<string>): Part[] {
  return [
    createSharedStatePart({ lease: LEASE }),
    createNetworkPart({ flushIntervalMs: 20 }),
    probeJob(running),
  ];
}

describe.skipIf(!DIALECTS.includes('postgres') || !redisAvailable)(
  'two instances sharing state in Redis',
  () => {
    const prefix = redisPrefix('shared');
    const running = new Set<string>();
    let env: TestEnv;
    let a: Instance;
    let b: Instance;

    beforeAll(async () => {
      env = await testEnv('postgres', { REDIS_URL, REDIS_KEY_PREFIX: prefix });
      a = await startInstance(env.config, 'a', partsWith(running));
      b = await startInstance(env.config, 'b', partsWith(running));
      await setSatelliteTle(a.ctx.database.db, 'Norbi', leoTle('NORBI', 46494));
      for (const s of [a, b]) await s.ctx.services.network?.catalogue.refresh();
    });
    afterAll(async () => {
      await a?.stop();
      await b?.stop();
      await env?.cleanup();
      await deleteKeys(prefix);
    });

    it('merges a frame heard through both instances into one packet, and each live stream carries every packet once', async () => {
      const streams = [await openEventStream(a.url), await openEventStream(b.url)];
      const user = await buildUser(a.ctx.database.db);
      const atA = await connectStation(a, user, 'West_GS');
      const atB = await connectStation(b, user, 'East_GS');
      const packetIds = new Set<string>();
      // A frame heard by both stations (through different instances), and one heard by each.
      const sends = [
        publishTele(atA, user, 'West_GS', 'rx', rxPayload({ data: frame('both') })),
        publishTele(atB, user, 'East_GS', 'rx', rxPayload({ data: frame('both') })),
        publishTele(atA, user, 'West_GS', 'rx', rxPayload({ data: frame('west') })),
        publishTele(atB, user, 'East_GS', 'rx', rxPayload({ data: frame('east') })),
      ];
      await Promise.all(sends);
      const db = a.ctx.database.db;
      const packets = await waitFor(async () => {
        const rows = await db
          .selectFrom('packets')
          .select(['id', 'raw', 'stationNumber'])
          .where('raw', 'in', [frame('both'), frame('west'), frame('east')])
          .execute();
        return rows.length === 3 && rows.reduce((n, r) => n + r.stationNumber, 0) === 4 && rows;
      }, 10_000);
      for (const p of packets) packetIds.add(p.id);
      expect(packets.find((p) => p.raw === frame('both'))?.stationNumber).toBe(2);
      const receptions = await db
        .selectFrom('receptions')
        .select('stationId')
        .where('packetId', '=', packets.find((p) => p.raw === frame('both'))?.id ?? '')
        .execute();
      expect(receptions.map((r) => r.stationId).sort()).toEqual(
        [`East_GS@${user.id}`, `West_GS@${user.id}`].sort(),
      );

      const announced = (stream: (typeof streams)[number]) =>
        stream.events
          .filter((e) => e.event === 'new-packet')
          .map((e) => NewPacketEventSchema.parse(JSON.parse(e.data)).packetId)
          .filter((id) => packetIds.has(id));
      for (const stream of streams) await waitFor(() => announced(stream).length >= 3, 10_000);
      // Time for a duplicate to arrive, if one were coming.
      await sleep(500);
      for (const stream of streams) {
        expect(announced(stream).sort()).toEqual([...packetIds].sort());
        stream.close();
      }
      await atA.endAsync();
      await atB.endAsync();
    });

    it('shows a ping stored through one instance in the other’s /v1/stations on its next request', async () => {
      const user = await buildUser(a.ctx.database.db);
      const id = `Pinging_GS@${user.id}`;
      const atB = async () =>
        StationsResponseSchema.parse(
          (await b.app.inject({ method: 'GET', url: '/v1/stations' })).json(),
        ).find((s) => s.name === 'Pinging_GS');
      const station = await connectStation(a, user, 'Pinging_GS');
      try {
        const welcomed = await waitFor(atB, 10_000);
        // Quiet: b's list built above is past its rebuild interval when the event comes.
        await sleep(STATION_LIST_MIN_REBUILD_MS);
        const arrived = nextBusEvent(b.ctx.events, 'stations-seen', (event) =>
          event.stationIds.includes(id),
        );
        await publishTele(station, user, 'Pinging_GS', 'ping', { RSSI: -64, radio: 0 });
        await arrived;
        const row = await a.ctx.database.db
          .selectFrom('stations')
          .select('lastSeen')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const shown = await atB();
        expect(shown?.lastSeen).toBe(row.lastSeen);
        expect(shown?.lastSeen).toBeGreaterThan(welcomed.lastSeen ?? Infinity);
      } finally {
        await station.endAsync();
      }
    });

    it('holds a per-client request limit and the failed-login limit across instances', async () => {
      // POST /weblogin: 10 per client per 10 minutes, counted before the body is looked at.
      const remoteAddress = '203.0.113.7';
      for (let i = 0; i < 10; i += 1) {
        const res = await post(a, '/weblogin', remoteAddress, {});
        expect(res.statusCode).toBe(400);
      }
      const over = await post(b, '/weblogin', remoteAddress, {});
      expect(over.statusCode).toBe(429);

      // POST /v1/login: 20 failures per address in 15 minutes.
      const guesser = '203.0.113.8';
      const guess = { userId: '123456', loginToken: 'x'.repeat(43) };
      for (let i = 0; i < 20; i += 1) {
        const res = await post(b, '/v1/login', guesser, guess);
        expect(res.statusCode).toBe(401);
      }
      const locked = await post(a, '/v1/login', guesser, guess);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ error: expect.stringContaining('failed logins') });
    });

    it('refuses on one instance a bot-check solution already used on the other', async () => {
      const captcha = await solveCaptcha(a);
      const first = await post(a, '/weblogin', '203.0.113.9', {
        email: 'replay@example.org',
        captcha,
      });
      expect(first.statusCode).toBe(200);
      const replay = await post(b, '/weblogin', '203.0.113.10', {
        email: 'other@example.org',
        captcha,
      });
      expect(replay.statusCode).toBe(400);
    });

    it('runs a job on one instance, and moves it when that one stops or dies', async () => {
      let both = 0;
      const watch = setInterval(() => {
        if (running.size > 1) both += 1;
      }, 10);
      try {
        expect([...running]).toEqual(['a']);
        // The holder stops: it lets go, and the other takes the job within a renewal interval.
        await a.stop();
        await waitFor(() => running.has('b'), LEASE.renewMs * 4);
        expect([...running]).toEqual(['b']);

        // A new instance waits; the holder dies (its Redis connection is gone for good): it stops
        // its job before its lease could run out, and the new one takes over after the lease does.
        const c = await startInstance(env.config, 'c', partsWith(running));
        try {
          await sleep(LEASE.renewMs * 3);
          expect([...running]).toEqual(['b']);
          b.ctx.services.shared?.redis.disconnect();
          await waitFor(() => running.has('c'), LEASE.ttlMs * 3);
          expect([...running]).toEqual(['c']);
        } finally {
          await c.stop();
        }
      } finally {
        clearInterval(watch);
      }
      expect(both).toBe(0);
    });
  },
);

describe.skipIf(!DIALECTS.includes('postgres') || !redisAvailable)(
  'an instance whose Redis goes down',
  () => {
    const running = new Set<string>();
    let redis: PrivateRedis;
    let env: TestEnv;
    let server: Instance;

    beforeAll(async () => {
      redis = await privateRedis();
      await redis.start();
      env = await testEnv('postgres', { REDIS_URL: redis.url });
      server = await startInstance(env.config, 'solo', partsWith(running));
      await setSatelliteTle(server.ctx.database.db, 'Norbi', leoTle('NORBI', 46494));
      await server.ctx.services.network?.catalogue.refresh();
    });
    afterAll(async () => {
      await server?.stop();
      await redis?.kill();
      await env?.cleanup();
    });

    it('answers 503 where limits must hold across instances, keeps reads and ingest, and recovers', async () => {
      const user = await buildUser(server.ctx.database.db);
      const station = await connectStation(server, user, 'Dark_GS');
      expect([...running]).toEqual(['solo']);
      const login = () =>
        server.app.inject({
          method: 'POST',
          url: '/v1/login',
          payload: { userId: user.id, loginToken: 'y'.repeat(43) },
        });
      expect((await login()).statusCode).toBe(401);

      await redis.kill();
      await waitFor(() => !server.ctx.services.shared?.available());
      const refused = await login();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ error: expect.stringContaining('temporarily unavailable') });
      expect((await server.app.inject({ method: 'GET', url: '/v1/stations' })).statusCode).toBe(
        200,
      );
      // Frames are still stored, merged within this instance.
      await publishTele(station, user, 'Dark_GS', 'rx', rxPayload({ data: frame('dark') }));
      await waitFor(async () =>
        server.ctx.database.db
          .selectFrom('packets')
          .select('id')
          .where('raw', '=', frame('dark'))
          .executeTakeFirst(),
      );
      expect(server.ctx.services.network?.metrics.mergeFallbacks).toBeGreaterThan(0);
      // The job stops before its lease could have expired.
      await waitFor(() => running.size === 0, LEASE.ttlMs * 2);

      await redis.start();
      await waitFor(async () => (await login()).statusCode === 401, 10_000);
      await waitFor(() => running.has('solo'), LEASE.ttlMs * 3);
      await station.endAsync();
    });
  },
);
