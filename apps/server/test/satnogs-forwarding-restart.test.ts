// An outage of SatNOGS DB across a crash of the server: the real server process forwards to a
// local endpoint that validates submissions like SatNOGS DB's /api/telemetry/. While the endpoint
// is down a station sends frames; the process is killed with SIGKILL (no shutdown code runs),
// started again on the same data, the station sends more, and the endpoint comes back: every
// CRC-passing frame arrives exactly once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stationSubscriptions, stationTopic } from '@tinygs/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import {
  removeDataDir,
  startServerProcess,
  type ServerProcess,
} from '../../../e2e/src/server-process';
import { openDatabase } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { setSatelliteForwarding } from '../src/repositories/satnogs-outbox';
import { seedCatalogue } from '../src/seed/catalogue';
import { buildUser, TEST_SERVER_SECRET, type BuiltUser } from './factories';
import { rxPayload, waitFor, welcomePayload } from './network-helpers';
import { startFakeSatnogsDb, type FakeSatnogsDb } from './satnogs-db-fake';

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const STATION = 'Outage_GS';
const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex').toUpperCase();

function count(dataDir: string, sql: string): number {
  const db = new Database(join(dataDir, 'tinygs.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The catalogue with Norbi opted in, and a user, written before the server first starts. */
async function prepare(dataDir: string): Promise<BuiltUser> {
  const database = openDatabase({ kind: 'sqlite', file: join(dataDir, 'tinygs.db') });
  try {
    await migrateToLatest(database.db, 'sqlite');
    await seedCatalogue(database, { demo: true });
    await setSatelliteForwarding(database.db, 'Norbi', true);
    return await buildUser(database.db);
  } finally {
    await database.close();
  }
}

async function connect(server: ServerProcess, user: BuiltUser): Promise<MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
    username: user.id,
    password: user.password,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    clientId: `outage${Math.random().toString(16).slice(2, 10)}`,
  });
  await client.subscribeAsync(stationSubscriptions(user.id, STATION), { qos: 1 });
  await client.publishAsync(
    stationTopic(user.id, STATION, 'tele', 'welcome'),
    JSON.stringify(welcomePayload()),
    { qos: 1 },
  );
  return client;
}

describe('SatNOGS DB down across a SIGKILL and restart', () => {
  let server: ServerProcess | undefined;
  let station: MqttClient | undefined;
  let satnogs: FakeSatnogsDb | undefined;
  let dataDir = '';

  afterAll(async () => {
    await station?.endAsync();
    await server?.kill('SIGKILL');
    await satnogs?.close();
    if (dataDir) removeDataDir(dataDir);
  });

  it(
    'delivers every CRC-passing frame exactly once when the endpoint is back',
    { timeout: 280_000 },
    async () => {
      const fake = await startFakeSatnogsDb([TOKEN]);
      satnogs = fake;
      fake.mode = 'down';
      dataDir = mkdtempSync(join(tmpdir(), 'tinygs-satnogs-'));
      const user = await prepare(dataDir);
      const env = {
        SERVER_SECRET: TEST_SERVER_SECRET,
        SIMULATED_STATIONS: '0',
        LOG_LEVEL: 'warn',
        SATNOGS_DB_URL: fake.url,
        SATNOGS_DB_TOKEN: TOKEN,
        SATNOGS_DB_MAX_BACKOFF_MS: '200',
      };
      const outbox = () => count(dataDir, 'select count(*) as n from satnogs_outbox');
      const stored = () => count(dataDir, 'select count(*) as n from receptions');
      const sendAll = async (client: MqttClient, frames: string[]) => {
        await waitFor(
          () =>
            count(dataDir, `select count(*) as n from stations where name = '${STATION}'`) === 1,
          30_000,
        );
        for (const data of frames) {
          const payload = rxPayload({ data, station_location: [52.52, 13.405] });
          await client.publishAsync(
            stationTopic(user.id, STATION, 'tele', 'rx'),
            JSON.stringify(payload),
            { qos: 1 },
          );
        }
      };

      server = await startServerProcess({ dataDir, env });
      const { port, mqttPort } = server;
      station = await connect(server, user);
      const before = [1, 2, 3, 4, 5].map((i) => b64(`before the crash ${i}`));
      const crcError = b64('not for SatNOGS');
      await sendAll(station, before);
      await station.publishAsync(
        stationTopic(user.id, STATION, 'tele', 'rx'),
        JSON.stringify(rxPayload({ data: crcError, crc_error: true })),
        { qos: 1 },
      );
      await waitFor(() => stored() === before.length + 1 && outbox() === before.length, 30_000);
      // The sender has been trying while the endpoint is down, and said so.
      const running = server;
      await waitFor(() => running.log().includes('SatNOGS DB forwarding failed'), 30_000);
      expect(fake.requests).toBeGreaterThan(0);
      await server.kill('SIGKILL');
      await station.endAsync();
      const firstLog = server.log();

      server = await startServerProcess({ dataDir, port, mqttPort, env });
      station = await connect(server, user);
      const after = [1, 2, 3].map((i) => b64(`after the restart ${i}`));
      await sendAll(station, after);
      await waitFor(() => outbox() === before.length + after.length, 30_000);

      fake.mode = 'up';
      await waitFor(() => outbox() === 0, 60_000);
      const frames = fake.accepted.map((s) => s.frame).sort();
      expect(frames).toEqual([...before, ...after].map(hexOf).sort());
      expect(fake.accepted.every((s) => s.source === STATION && s.noradID === '46494')).toBe(true);
      expect(fake.invalid).toEqual([]);
      // The token was never logged.
      for (const log of [firstLog, server.log()]) expect(log).not.toContain(TOKEN);
    },
  );
});
