// Forwarding to SatNOGS DB, seen from SatNOGS DB's side: stations connected like firmware send
// frames over the real broker; a local endpoint that validates submissions the way SatNOGS DB's
// /api/telemetry/ does records what arrives. Only CRC-passing frames of opted-in satellites from
// stations that did not opt out arrive, in SiDS form, each exactly once, also when the endpoint
// was down or refused some tries for a while.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createNetworkPart } from '../src/network/part';
import { setSatelliteForwarding } from '../src/repositories/satnogs-outbox';
import { SatnogsForwarder } from '../src/satnogs/forwarder';
import { createForwardingMetrics } from '../src/satnogs/metrics';
import { createSatnogsForwardingPart } from '../src/satnogs/part';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { leoTle, setSatelliteTle } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { NORBI_FRAME, connectStation, publishTele, rxPayload, waitFor } from './network-helpers';
import { startFakeSatnogsDb, type FakeSatnogsDb } from './satnogs-db-fake';

const TOKEN = 'f00dfeed0123456789abcdef0123456789abcdef';
const MAX_ROWS = 4;
const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex').toUpperCase();

describe.each(DIALECTS)('forwarding frames to SatNOGS DB on %s', (dialect) => {
  let server: TestServer;
  let satnogs: FakeSatnogsDb;
  let owner: LoggedIn;
  let stranger: LoggedIn;
  let near: MqttClient;
  let keeper: MqttClient;
  // South and west: both hemisphere letters of the SiDS form are the negative ones.
  const location: [number, number] = [-34.6037, -58.3816];
  const db = () => server.ctx.database.db;
  const outbox = () => db().selectFrom('satnogsOutbox').selectAll().execute();
  const receptions = () =>
    db()
      .selectFrom('receptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  /** Publishes one frame from Near_GS and waits until its reception is stored. */
  const send = async (data: string, extra: Record<string, unknown> = {}, client = near) => {
    const before = await receptions();
    const station = client === near ? 'Near_GS' : 'Keeper_GS';
    await publishTele(
      client,
      owner,
      station,
      'rx',
      rxPayload({ station_location: location, data, ...extra }),
    );
    await waitFor(async () => (await receptions()) > before);
  };
  const arrived = (data: string) => satnogs.accepted.filter((s) => s.frame === hexOf(data));

  beforeAll(async () => {
    satnogs = await startFakeSatnogsDb([TOKEN]);
    server = await startTestServer(dialect, {
      listen: true,
      parts: [
        createNetworkPart({ flushIntervalMs: 20 }),
        createSatnogsForwardingPart({ idlePollMs: 20, firstBackoffMs: 10 }),
      ],
      env: {
        SATNOGS_DB_URL: satnogs.url,
        SATNOGS_DB_TOKEN: TOKEN,
        SATNOGS_DB_MAX_BACKOFF_MS: '40',
        SATNOGS_OUTBOX_MAX_ROWS: String(MAX_ROWS),
      },
    });
    const tle = leoTle('NORBI', 46494);
    await setSatelliteTle(db(), 'Norbi', tle);
    await setSatelliteForwarding(db(), 'Norbi', true);
    await server.ctx.services.network?.catalogue.refresh();
    owner = await loggedInUser(server);
    stranger = await loggedInUser(server);
    near = await connectStation(server, owner, 'Near_GS', { station_location: location });
    keeper = await connectStation(server, owner, 'Keeper_GS', { station_location: location });
    await waitFor(() =>
      db()
        .selectFrom('stations')
        .select('id')
        .where('id', '=', `Keeper_GS@${owner.id}`)
        .executeTakeFirst(),
    );
  });
  afterAll(async () => {
    await near?.endAsync();
    await keeper?.endAsync();
    await server?.stop();
    await satnogs?.close();
  });

  it('sends a CRC-passing frame in SiDS form with the token, the station and where it looked', async () => {
    const usec = Date.now() * 1000 - 1_500_000; // heard 1.5 s before the server got it
    await send(NORBI_FRAME, { usec_time: usec });
    const [sub] = await waitFor(() => arrived(NORBI_FRAME).length === 1 && arrived(NORBI_FRAME));
    expect(sub).toMatchObject({
      noradID: '46494',
      source: 'Near_GS',
      timestamp: new Date(Math.round(usec / 1000)).toISOString(),
      frame: hexOf(NORBI_FRAME),
      locator: 'longLat',
      latitude: '34.6037S',
      longitude: '58.3816W',
      authorization: `Token ${TOKEN}`,
    });
    const stored = await db()
      .selectFrom('receptions')
      .innerJoin('packets', 'packets.id', 'receptions.packetId')
      .select(['receptions.azimuth', 'receptions.elevation'])
      .where('packets.raw', '=', NORBI_FRAME)
      .executeTakeFirstOrThrow();
    expect(sub?.azimuth).toBe(stored.azimuth?.toFixed(1));
    expect(sub?.elevation).toBe(stored.elevation?.toFixed(1));
    expect(satnogs.invalid).toEqual([]);
    await waitFor(async () => (await outbox()).length === 0);
  });

  it('lets the owner opt a station out in the edit form; nobody else can', async () => {
    const edit = {
      description: '',
      antenna: 'Dipole',
      antennaBand: [400, 450],
      test: false,
      autoUpdate: false,
      beta: false,
      satnogsOptOut: true,
    };
    const url = `/v1/station/Keeper_GS@${owner.id}`;
    const foreign = await server.app.inject({
      method: 'PUT',
      url,
      headers: stranger.headers,
      payload: edit,
    });
    expect(foreign.statusCode).toBe(403);
    const anonymous = await server.app.inject({ method: 'PUT', url, payload: edit });
    expect(anonymous.statusCode).toBe(401);
    const read = async () =>
      (await server.app.inject({ method: 'GET', url, headers: owner.headers })).json<{
        satnogsOptOut?: boolean;
      }>().satnogsOptOut;
    expect(await read()).toBe(false);
    const own = await server.app.inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: edit,
    });
    expect(own.statusCode).toBe(200);
    expect(await read()).toBe(true);
    // Only the owner is told.
    const publicView = (await server.app.inject({ method: 'GET', url })).json<object>();
    expect(publicView).not.toHaveProperty('satnogsOptOut');
  });

  it('does not send what was queued before its station opted out', async () => {
    const queued = b64('queued, then its owner opted out');
    const url = `/v1/station/Near_GS@${owner.id}`;
    const optOut = (satnogsOptOut: boolean) =>
      server.app.inject({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: {
          description: '',
          antenna: 'Dipole',
          antennaBand: [400, 450],
          test: false,
          autoUpdate: false,
          beta: false,
          satnogsOptOut,
        },
      });
    satnogs.mode = 'down';
    await send(queued);
    expect((await optOut(true)).statusCode).toBe(200);
    // Still down: the sender's next look finds the station opted out and drops the frame (a try
    // already under way when the opt-out was saved can only meet the 503).
    await waitFor(async () => (await outbox()).length === 0);
    satnogs.mode = 'up';
    expect((await optOut(false)).statusCode).toBe(200);
    const marker = b64('after opting in again');
    await send(marker);
    await waitFor(() => arrived(marker).length === 1);
    expect(arrived(queued)).toEqual([]);
  });

  it('does not send CRC errors, test frames, satellites not opted in or opted-out stations', async () => {
    const crc = b64('crc-error frame');
    const fees = b64('FEES frame');
    const kept = b64('kept back by its owner');
    const test = b64('TinyGS-test Near_GS 2026-11-26T00:00:00Z');
    const marker = b64('marker frame');
    await send(crc, { crc_error: true });
    await send(fees, { satellite: 'FEES', NORAD: 48082 });
    await send(kept, {}, keeper);
    await send(test);
    // Queued after the others: once it has arrived, they were either sent before or never queued.
    await send(marker);
    await waitFor(() => arrived(marker).length === 1);
    await waitFor(async () => (await outbox()).length === 0);
    expect(arrived(crc)).toEqual([]);
    expect(arrived(fees)).toEqual([]);
    expect(arrived(kept)).toEqual([]);
    expect(arrived(test)).toEqual([]);
    expect(satnogs.accepted.map((s) => s.source)).not.toContain('Keeper_GS');
  });

  it('delivers every frame exactly once after the endpoint was down and refused tries', async () => {
    const frames = [1, 2, 3, 4].map((i) => b64(`outage frame ${i}`));
    satnogs.mode = 'down';
    const requestsBefore = satnogs.requests;
    for (const frame of frames) await send(frame);
    // Tried and failed while down (the sender backs off, it does not give up).
    await waitFor(() => satnogs.requests >= requestsBefore + 3);
    expect((await outbox()).length).toBe(frames.length);
    // Back, but first a rate limit and a bad token (the operator fixes it): tried again.
    satnogs.answerNext(429, 401, 500);
    satnogs.mode = 'up';
    await waitFor(async () => (await outbox()).length === 0);
    for (const frame of frames) expect(arrived(frame)).toHaveLength(1);
    expect(satnogs.invalid).toEqual([]);
    // What Prometheus sees: the failed tries, the frames sent, an empty outbox.
    const figure = (body: string, name: string) =>
      Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, 'm').exec(body)?.[1] ?? NaN);
    const metrics = await waitFor(async () => {
      const body = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
      return figure(body, 'tinygs_satnogs_outbox_depth') === 0 && body;
    });
    expect(figure(metrics, 'tinygs_satnogs_failed_tries_total')).toBeGreaterThanOrEqual(6);
    expect(figure(metrics, 'tinygs_satnogs_frames_sent_total')).toBe(satnogs.accepted.length);
  });

  it('drops a frame SatNOGS DB refuses for good instead of retrying it forever', async () => {
    const refused = b64('refused frame');
    const next = b64('frame after the refused one');
    satnogs.answerNext(400);
    await send(refused);
    await send(next);
    await waitFor(() => arrived(next).length === 1);
    await waitFor(async () => (await outbox()).length === 0);
    expect(arrived(refused)).toEqual([]);
    const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/tinygs_satnogs_frames_refused_total\{[^}]*\} 1\b/);
  });

  it('keeps at most SATNOGS_OUTBOX_MAX_ROWS waiting, dropping the oldest, and counts them', async () => {
    const frames = [1, 2, 3, 4, 5, 6].map((i) => b64(`long outage frame ${i}`));
    satnogs.mode = 'unreachable';
    for (const frame of frames) await send(frame);
    await waitFor(async () => (await outbox()).length === MAX_ROWS);
    satnogs.mode = 'up';
    await waitFor(async () => (await outbox()).length === 0);
    expect(frames.map((f) => arrived(f).length)).toEqual([0, 0, 1, 1, 1, 1]);
    const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/tinygs_satnogs_frames_dropped_total\{[^}]*\} 2\b/);
    expect(metrics).not.toContain(TOKEN);
  });

  it('sends each frame once with a second sender running at the same time', async () => {
    const config = server.ctx.config.satnogs;
    if (!config) throw new Error('forwarding not configured');
    // Two instances both believing they hold the lease: the claims keep them apart.
    const second = new SatnogsForwarder(
      db(),
      config,
      createForwardingMetrics(new Registry()),
      pino({ level: 'silent' }),
      { idlePollMs: 5, firstBackoffMs: 5, batchSize: 100 },
    );
    const stop = new AbortController();
    const running = second.run(stop.signal);
    try {
      const frames = [1, 2, 3, 4].map((i) => b64(`raced frame ${i}`));
      satnogs.mode = 'down';
      for (const frame of frames) await send(frame);
      satnogs.mode = 'up';
      await waitFor(async () => (await outbox()).length === 0);
      expect(frames.map((f) => arrived(f).length)).toEqual([1, 1, 1, 1]);
    } finally {
      stop.abort();
      await running;
    }
  });

  it('keeps one set of figures on /metrics when this instance is elected again', async () => {
    // The lease moved away and back: the part starts again in the same server.
    const again = await createSatnogsForwardingPart({ idlePollMs: 5 }).start(server.ctx);
    try {
      const metrics = (await server.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics.match(/^# TYPE tinygs_satnogs_frames_sent_total /gm)).toHaveLength(1);
      expect(metrics).toMatch(/^tinygs_satnogs_frames_sent_total(\{[^}]*\})? \d+$/m);
    } finally {
      await again?.stop();
    }
  });
});

describe('forwarding to SatNOGS DB switched off', () => {
  it('is off without SATNOGS_DB_URL: frames of opted-in satellites are stored, not queued', async () => {
    const server = await startTestServer('sqlite', {
      parts: [createNetworkPart({ flushIntervalMs: 20 }), createSatnogsForwardingPart()],
    });
    try {
      expect(server.ctx.config.satnogs).toBeNull();
      const db = server.ctx.database.db;
      await setSatelliteForwarding(db, 'Norbi', true);
      await server.ctx.services.network?.catalogue.refresh();
      const user = await loggedInUser(server);
      const client = await connectStation(server, user, 'Off_GS');
      try {
        await publishTele(client, user, 'Off_GS', 'rx', rxPayload());
        await waitFor(async () =>
          db.selectFrom('receptions').select('packetId').executeTakeFirst(),
        );
        expect(await db.selectFrom('satnogsOutbox').selectAll().execute()).toEqual([]);
      } finally {
        await client.endAsync();
      }
    } finally {
      await server.stop();
    }
  });

  it('refuses credentials in SATNOGS_DB_URL and a token that could break the header', () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'tinygs-satnogs-config-')) };
    try {
      const url = 'https://db.satnogs.org/api/telemetry/';
      expect(loadConfig({ ...env, SATNOGS_DB_URL: url }).satnogs).toMatchObject({
        url,
        token: null,
      });
      expect(() =>
        loadConfig({ ...env, SATNOGS_DB_URL: 'https://user:secret@db.satnogs.org/api/telemetry/' }),
      ).toThrow(/SATNOGS_DB_URL: must not hold credentials/);
      expect(() =>
        loadConfig({ ...env, SATNOGS_DB_URL: url, SATNOGS_DB_TOKEN: 'abc\r\nX-Evil: 1' }),
      ).toThrow(/SATNOGS_DB_TOKEN/);
    } finally {
      rmSync(env.DATA_DIR, { recursive: true, force: true });
    }
  });
});
