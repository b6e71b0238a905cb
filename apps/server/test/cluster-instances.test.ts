// The production shape end to end: two server processes (`node --import tsx src/main.ts`, as the
// cluster recipe starts them) on one PostgreSQL database, one Redis and one Mosquitto 2 started
// from the CLI's configuration. Three stations hear the same 50 frames and publish them at QoS 1;
// one instance is killed with SIGKILL while it holds receptions it has not committed, and
// restarted. Every frame the broker acknowledged to a station ends up in exactly one packet with
// its three receptions, the counters agree with the rows, each live stream carries each packet once,
// and a login limit hit through one instance holds on the other.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LAST_WILL_PAYLOAD,
  NewPacketEventSchema,
  lastWillTopic,
  stationSubscriptions,
  stationTopic,
} from '@tinygs/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { openDatabase, type Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { readCounters } from '../src/repositories/counters';
import { seedCatalogue } from '../src/seed/catalogue';
import { buildUser, leoTle, setSatelliteTle, type BuiltUser } from './factories';
import { DIALECTS, testEnv, type TestEnv } from './harness';
import { openEventStream, rxPayload, waitFor, welcomePayload } from './network-helpers';
import {
  MOSQUITTO,
  REDIS_URL,
  deleteKeys,
  redisAvailable,
  freePort,
  redisPrefix,
  startMosquitto,
} from './cluster-helpers';

const FRAMES = 50;
const STATIONS = ['North_GS', 'South_GS', 'West_GS'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const frame = (i: number) => Buffer.from(`cluster test frame ${i}`).toString('base64');

interface Process {
  url: string;
  child: ChildProcess;
  output: string[];
}

describe.skipIf(!DIALECTS.includes('postgres') || !redisAvailable || !existsSync(MOSQUITTO))(
  'a cluster of two server processes on Mosquitto, Redis and PostgreSQL',
  () => {
    const prefix = redisPrefix('instances');
    const dir = mkdtempSync(join(tmpdir(), 'tinygs-cluster-'));
    let env: TestEnv;
    let db: Db;
    let broker: { url: string; process: ChildProcess };
    let user: BuiltUser;
    const ports = new Map<string, number>();
    const instances = new Map<string, Process>();
    const stations: MqttClient[] = [];

    async function startInstance(id: string): Promise<Process> {
      const port = ports.get(id) ?? (await freePort());
      ports.set(id, port);
      const database = env.config.database;
      if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: join(REPO_ROOT, 'apps/server'),
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          HOST: '127.0.0.1',
          INSTANCE_ID: id,
          DATA_DIR: env.config.dataDir,
          DATABASE_URL: database.url,
          REDIS_URL,
          REDIS_KEY_PREFIX: prefix,
          MQTT_BROKER_URL: broker.url,
          SERVER_SECRET: env.config.serverSecret,
          SIMULATED_STATIONS: '0',
          LOG_LEVEL: 'warn',
          LOG_FORMAT: 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
      const url = `http://127.0.0.1:${port}`;
      await waitFor(async () => {
        if (child.exitCode !== null) throw new Error(`${id} exited:\n${output.join('')}`);
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      }, 90_000);
      const started = { url, child, output };
      instances.set(id, started);
      return started;
    }

    async function stopInstance(id: string, signal: NodeJS.Signals): Promise<void> {
      const instance = instances.get(id);
      if (!instance || instance.child.exitCode !== null || instance.child.signalCode !== null)
        return;
      const exited = new Promise((r) => instance.child.once('exit', r));
      instance.child.kill(signal);
      await exited;
    }

    /** Receptions an instance holds in its queue, not committed yet (its /metrics, loopback). */
    async function queueDepth(url: string): Promise<number> {
      const text = await fetch(`${url}/metrics`).then((r) => r.text());
      const line = text.split('\n').find((l) => l.startsWith('tinygs_ingest_queue_depth'));
      return Number(line?.split(' ').at(-1) ?? 0);
    }

    async function connectStation(name: string): Promise<MqttClient> {
      const client = await mqtt.connectAsync(broker.url.replace(/\/\/[^@]*@/, '//'), {
        username: user.id,
        password: user.password,
        clientId: `${name}-${user.id}`,
        protocolVersion: 4,
        reconnectPeriod: 0,
        will: {
          topic: lastWillTopic(user.id, name),
          payload: Buffer.from(LAST_WILL_PAYLOAD),
          qos: 1,
          retain: false,
        },
      });
      await client.subscribeAsync(stationSubscriptions(user.id, name), { qos: 1 });
      await client.publishAsync(
        stationTopic(user.id, name, 'tele', 'welcome'),
        JSON.stringify(welcomePayload()),
        { qos: 1 },
      );
      return client;
    }

    /** Every station publishes frame i at QoS 1; resolves when the broker acknowledged all. */
    const hear = (i: number) =>
      Promise.all(
        STATIONS.map((name, s) =>
          stations[s]?.publishAsync(
            stationTopic(user.id, name, 'tele', 'rx'),
            JSON.stringify(rxPayload({ data: frame(i), rssi: -100 - s })),
            { qos: 1 },
          ),
        ),
      );

    beforeAll(async () => {
      env = await testEnv('postgres');
      db = openDatabase(env.config.database);
      await migrateToLatest(db.db, db.dialect);
      await seedCatalogue(db);
      await setSatelliteTle(db.db, 'Norbi', leoTle('NORBI', 46494));
      // Before the instances start: their reconciliation gives the account its broker login.
      user = await buildUser(db.db);
      broker = await startMosquitto(join(dir, 'mosquitto'));
      await startInstance('a');
      await startInstance('b');
      for (const name of STATIONS) stations.push(await connectStation(name));
      await waitFor(async () => (await readCounters(db.db)).stations === STATIONS.length, 20_000);
    }, 240_000);

    afterAll(async () => {
      for (const s of stations) await s.endAsync().catch(() => undefined);
      for (const id of instances.keys()) await stopInstance(id, 'SIGTERM');
      broker?.process.kill();
      await db?.close();
      await env?.cleanup();
      await deleteKeys(prefix);
      rmSync(dir, { recursive: true, force: true });
    });

    it('stores every acknowledged frame once with all its receptions through a SIGKILL and restart', async () => {
      const a = instances.get('a');
      const b = instances.get('b');
      if (!a || !b) throw new Error('instances not started');
      const streamA = await openEventStream(a.url);
      const streamB = await openEventStream(b.url);
      const packetOf = async (i: number) =>
        db.db
          .selectFrom('packets')
          .select(['id', 'stationNumber'])
          .where('raw', '=', frame(i))
          .execute();
      const announced = (stream: typeof streamA) =>
        stream.events
          .filter((e) => e.event === 'new-packet')
          .map((e) => NewPacketEventSchema.parse(JSON.parse(e.data)).packetId);

      // Frames 0-19 with both instances up: both streams see each packet.
      for (let i = 0; i < 20; i += 1) {
        await hear(i);
        await sleep(10);
      }
      const early = await waitFor(async () => {
        const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => packetOf(i)));
        return ids.every((rows) => rows.length === 1) && ids.map((rows) => rows[0]?.id ?? '');
      }, 30_000);
      for (const stream of [streamA, streamB])
        await waitFor(() => early.every((id) => announced(stream).includes(id)), 10_000);

      // Frames 20-34 keep coming; a is killed the moment it holds uncommitted receptions.
      const flowing = (async () => {
        for (let i = 20; i < 35; i += 1) {
          await hear(i);
          await sleep(5);
        }
      })();
      await waitFor(async () => (await queueDepth(a.url)) > 0, 20_000);
      a.child.kill('SIGKILL');
      await new Promise((r) => a.child.once('exit', r));
      await flowing;
      const restarted = await startInstance('a');
      const streamA2 = await openEventStream(restarted.url);
      // Frames 35-49 with both up again.
      for (let i = 35; i < FRAMES; i += 1) {
        await hear(i);
        await sleep(10);
      }

      const packets = await waitFor(async () => {
        const all = await Promise.all(Array.from({ length: FRAMES }, (_, i) => packetOf(i)));
        return all.every((rows) => rows.length >= 1 && rows[0]?.stationNumber === 3) && all;
      }, 60_000).catch(async (err: unknown) => {
        const all = await Promise.all(Array.from({ length: FRAMES }, (_, i) => packetOf(i)));
        const missing = all.flatMap((rows, i) =>
          rows.length === 1 && rows[0]?.stationNumber === 3
            ? []
            : [`${i}: ${JSON.stringify(rows)}`],
        );
        // What the instances logged (warnings and errors) says why, in a CI log too.
        const stored = await db.db
          .selectFrom('receptions')
          .select(['packetId', 'stationId'])
          .where(
            'packetId',
            'in',
            all.flatMap((rows) => rows.map((r) => r.id)),
          )
          .execute();
        const logs = [...instances.entries(), ['a (before SIGKILL)', a] as const].map(
          ([id, p]) => `--- ${id}:\n${p.output.join('').slice(-4000)}`,
        );
        throw new Error(
          `frames not stored as one packet of 3: ${missing.join('; ')}\nreceptions stored: ${stored.length}\n${logs.join('\n')}`,
          { cause: err },
        );
      });
      // Exactly one packet per frame, with the three stations' receptions.
      for (const rows of packets) expect(rows).toHaveLength(1);
      const ids = packets.map((rows) => rows[0]?.id ?? '');
      const receptions = await db.db
        .selectFrom('receptions')
        .select(['packetId', 'stationId'])
        .where('packetId', 'in', ids)
        .execute();
      expect(receptions).toHaveLength(FRAMES * STATIONS.length);
      for (const id of ids) {
        expect(
          receptions
            .filter((r) => r.packetId === id)
            .map((r) => r.stationId)
            .sort(),
        ).toEqual(STATIONS.map((s) => `${s}@${user.id}`).sort());
      }
      // The counters agree with the rows.
      const counters = await readCounters(db.db);
      expect(counters.packets).toBe(FRAMES);
      expect(counters.receptions).toBe(FRAMES * STATIONS.length);
      const totals = await db.db
        .selectFrom('stations')
        .select(['id', 'telemetryPackets'])
        .where('userId', '=', user.id)
        .execute();
      expect(totals.map((t) => t.telemetryPackets)).toEqual(STATIONS.map(() => FRAMES));

      // Live streams: b (never down) carried each packet once; a's first stream each packet up
      // to its death at most once, and those before the kill; a's second stream each packet
      // after its restart once.
      await waitFor(() => ids.every((id) => announced(streamB).includes(id)), 10_000);
      await waitFor(() => ids.slice(35).every((id) => announced(streamA2).includes(id)), 10_000);
      await sleep(500);
      for (const s of [streamA, streamB, streamA2]) {
        const seen = announced(s).filter((id) => ids.includes(id));
        expect(new Set(seen).size).toBe(seen.length);
      }
      expect(
        announced(streamB)
          .filter((id) => ids.includes(id))
          .sort(),
      ).toEqual([...ids].sort());
      for (const s of [streamA, streamB, streamA2]) s.close();
    }, 240_000);

    it('holds a login limit hit through one instance on the other', async () => {
      const a = instances.get('a');
      const b = instances.get('b');
      if (!a || !b) throw new Error('instances not started');
      const login = (url: string) =>
        fetch(`${url}/v1/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: user.id, loginToken: 'z'.repeat(43) }),
        }).then((r) => r.status);
      for (let i = 0; i < 20; i += 1) expect(await login(b.url)).toBe(401);
      expect(await login(a.url)).toBe(429);
    }, 60_000);
  },
);
