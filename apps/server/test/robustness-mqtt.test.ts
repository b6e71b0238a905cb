// Bad input over MQTT: an authenticated station publishes random bytes, wrong JSON types, extreme
// numbers and nested junk on every topic a station publishes, mixed with valid receptions. The
// server must keep running, keep its counters equal to the stored rows, and stay healthy.
import { stationTopic } from '@tinygs/contracts';
import fc from 'fast-check';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parts } from '../src/parts';
import { readCounters } from '../src/repositories/counters';
import { buildUser, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  connectStation,
  NORBI_FRAME,
  NORBI_FRAME_2,
  rxPayload,
  waitFor,
  welcomePayload,
} from './network-helpers';

const STATION = 'Fuzz_MQTT_GS';
// Below the firmware's 1000-byte MQTT packet limit, which closes the connection by design.
const MAX_PAYLOAD = 900;

const junkValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    null,
    -1,
    0,
    1e308,
    -1e308,
    2 ** 63,
    Number.MAX_SAFE_INTEGER,
    '',
    'NaN',
    [],
    {},
    [1],
    [1e308, -1e308],
    ['a', 'b'],
    { $ne: null },
  ),
);

function mutated(base: Record<string, unknown>) {
  const keys = Object.keys(base);
  return fc
    .dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), junkValue, {
      minKeys: 1,
      maxKeys: 4,
    })
    .map((changes) => JSON.stringify({ ...base, ...changes }));
}

const payload = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  mutated(rxPayload()),
  mutated(welcomePayload()),
  fc.constantFrom(
    '',
    '0',
    '1',
    '-1',
    '1e999',
    '{"truncated":',
    '['.repeat(400) + ']'.repeat(400),
    '{"a":'.repeat(150) + '1' + '}'.repeat(150),
    JSON.stringify({ ...rxPayload(), data: 'A'.repeat(700) }),
    JSON.stringify({ ...rxPayload(), usec_time: -1, unix_GS_time: 1e15 }),
    JSON.stringify({ ...rxPayload(), frequency: Infinity }).replace('null', '1e999'),
  ),
);

const topicName = fc.oneof(
  fc.constantFrom('tele/welcome', 'tele/ping', 'tele/rx', 'tele/status'),
  fc.constantFrom('stat/status', 'stat/log', 'stat/anything'),
  fc.stringMatching(/^[a-zA-Z0-9_]{1,12}$/).map((n) => `stat/${n}`),
);

/** A publish on a connection the broker is closing never gets its PUBACK; don't wait forever. */
async function publishBounded(client: MqttClient, topic: string, body: string | Buffer) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 2_000);
  });
  const outcome = await Promise.race([
    client.publishAsync(topic, body, { qos: 1 }).then(
      () => 'ok' as const,
      () => 'error' as const,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  if (outcome !== 'ok') client.end(true);
  return outcome;
}

describe.each(DIALECTS)(
  'MQTT robustness on %s: random station payloads on every station topic',
  (dialect) => {
    let server: TestServer;
    let user: BuiltUser;
    let client: MqttClient;
    const db = () => server.ctx.database.db;

    beforeAll(async () => {
      const network = parts.find((p) => p.name === 'network');
      if (!network) throw new Error('network part missing from src/parts.ts');
      server = await startTestServer(dialect, { parts: [network] });
      user = await buildUser(db());
      client = await connectStation(server, user, STATION);
    });
    afterAll(async () => {
      client?.end(true);
      await server?.stop();
    });

    it(
      'survives junk on every topic with counters matching stored rows',
      { timeout: 55_000 },
      async () => {
        let valid = 0;
        let reconnects = 0;
        await fc.assert(
          fc.asyncProperty(
            topicName,
            payload,
            fc.option(fc.constantFrom(NORBI_FRAME, NORBI_FRAME_2), { freq: 3, nil: undefined }),
            fc.boolean(),
            async (topic, body, frame, crcError) => {
              // The broker closes a station that floods invalid messages; a real station reconnects.
              if (!client.connected) {
                reconnects += 1;
                client.end(true);
                client = await connectStation(server, user, STATION);
              }
              const [kind, name] = topic.split('/') as ['tele' | 'stat', string];
              const bytes = Buffer.byteLength(body);
              if (bytes <= MAX_PAYLOAD) {
                await publishBounded(client, stationTopic(user.id, STATION, kind, name), body);
              }
              // Interleave valid receptions, some with CRC errors, so counters have something to count.
              if (frame && client.connected) {
                valid += 1;
                await publishBounded(
                  client,
                  stationTopic(user.id, STATION, 'tele', 'rx'),
                  JSON.stringify(
                    rxPayload({
                      data: frame,
                      crc_error: crcError,
                      usec_time: Date.now() * 1000 + valid,
                    }),
                  ),
                );
              }
            },
          ),
          { numRuns: 300, interruptAfterTimeLimit: 25_000 },
        );
        expect(valid).toBeGreaterThan(0);

        const network = server.ctx.services.network;
        await network?.flush();
        await waitFor(async () => {
          await network?.flush();
          const counters = await readCounters(db());
          const rows = await db()
            .selectFrom('packets')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('crcError', '=', 0)
            .executeTakeFirstOrThrow();
          return counters.packets === Number(rows.n) && Number(rows.n) > 0;
        }, 10_000);

        const counters = await readCounters(db());
        const receptions = await db()
          .selectFrom('receptions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const crc = await db()
          .selectFrom('receptions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('crcError', '=', 1)
          .executeTakeFirstOrThrow();
        expect(counters.receptions).toBe(Number(receptions.n));
        expect(counters.crcErrors).toBe(Number(crc.n));
        expect(counters.droppedMessages).toBeGreaterThan(0);

        const health = await server.app.inject({ method: 'GET', url: '/healthz' });
        expect(health.statusCode).toBe(200);
        // The broker still serves: a fresh station connects and its valid reception is stored.
        const before = Number(receptions.n);
        const freshUser = await buildUser(db());
        const fresh = await connectStation(server, freshUser, 'After_Fuzz_GS');
        await fresh.publishAsync(
          stationTopic(freshUser.id, 'After_Fuzz_GS', 'tele', 'rx'),
          JSON.stringify(rxPayload({ usec_time: Date.now() * 1000 + 1e6 })),
          { qos: 1 },
        );
        await waitFor(async () => {
          await network?.flush();
          const r = await db()
            .selectFrom('receptions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return Number(r.n) > before;
        }, 10_000);
        await fresh.endAsync();
        console.info(`robustness-mqtt: ${valid} valid receptions, ${reconnects} reconnects`);
      },
    );
  },
);
