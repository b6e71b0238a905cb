// A crash in the middle of traffic loses nothing that was announced. The real server process runs
// with simulated stations; a browser-like client collects the packet ids announced on /sse/events;
// the process is killed with SIGKILL (no shutdown code runs) and started again on the same data
// directory and MQTT port. Every announced packet must be stored, the counters must equal the
// stored rows, and the stations must reconnect and be online again.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  removeDataDir,
  startServerProcess,
  type ServerProcess,
} from '../../../e2e/src/server-process';
import { openEventStream, waitFor } from './network-helpers';

// Enough simulated stations that passes (and so announced packets) come every few seconds.
const STATIONS = 60;

function readStore(dataDir: string) {
  const db = new Database(join(dataDir, 'tinygs.db'), { readonly: true, fileMustExist: true });
  try {
    // One read transaction: the server keeps writing while we look, and rows and counters commit
    // together, so they only compare within one snapshot.
    return db.transaction(() => readAll(db))();
  } finally {
    db.close();
  }
}

function readAll(db: Database.Database) {
  {
    const ids = new Set(
      (db.prepare('select id from packets').all() as { id: string }[]).map((r) => r.id),
    );
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const counters = Object.fromEntries(
      (
        db.prepare('select name, value from counters').all() as { name: string; value: number }[]
      ).map((r) => [r.name, r.value]),
    );
    return {
      ids,
      packets: count('select count(*) as n from packets where crc_error = 0'),
      receptions: count('select count(*) as n from receptions'),
      online: count('select count(*) as n from stations where status = 1'),
      counters,
    };
  }
}

describe('SIGKILL mid-traffic and restart on the same data', () => {
  let server: ServerProcess | undefined;
  let dataDir = '';

  afterAll(async () => {
    await server?.kill('SIGKILL');
    if (dataDir) removeDataDir(dataDir);
  });

  it(
    'keeps every announced packet and brings the stations back',
    { timeout: 280_000 },
    async () => {
      server = await startServerProcess({ env: { SIMULATED_STATIONS: String(STATIONS) } });
      dataDir = server.dataDir;
      const { port, mqttPort } = server;
      const stream = await openEventStream(server.url);
      // Enough traffic that the kill lands between batches, not in a quiet network.
      await waitFor(
        () => stream.events.filter((e) => e.event === 'new-packet').length >= 5,
        120_000,
      );
      await server.kill('SIGKILL');
      stream.close();
      const announced = stream.events
        .filter((e) => e.event === 'new-packet')
        .map((e) => (JSON.parse(e.data) as { packetId: string }).packetId);

      server = await startServerProcess({
        dataDir,
        port,
        mqttPort,
        env: { SIMULATED_STATIONS: String(STATIONS) },
      });
      const afterCrash = readStore(dataDir);
      const missing = announced.filter((id) => !afterCrash.ids.has(id));
      expect(missing).toEqual([]);

      // Through the public API as well, the way a visitor following the ping would open it.
      const unreadable: string[] = [];
      for (const id of announced) {
        const res = await fetch(`${server.url}/v1/packet/${id}`);
        if (res.status !== 200) unreadable.push(`${id}: ${res.status}`);
      }
      expect(unreadable).toEqual([]);

      // The stations reconnect on their own, like firmware does after a server restart.
      await waitFor(() => readStore(dataDir).online >= STATIONS * 0.9, 60_000);
      const store = readStore(dataDir);
      expect(store.counters.packets ?? 0).toBe(store.packets);
      expect(store.counters.receptions ?? 0).toBe(store.receptions);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
    },
  );
});
