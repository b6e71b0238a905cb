// Merging across instances (REDIS_URL): two real ingest pipelines (merge index shared through
// Redis, batch writer, PostgreSQL store) on one database and one Redis, fed the copies of a few
// frames heard by several stations in any order, split between the instances in any way, with
// commits of either instance (or both at once) anywhere in between, copies redelivered to the
// other instance, and an instance that dies with uncommitted receptions (the broker then delivers
// them again). Whatever happens: one packet per frame, every station's reception stored once, and
// the counters moved by exactly that. Both ways an instance stores its batches run it: on the
// main thread's connection, and on the PostgreSQL writer thread's.
import { randomBytes } from 'node:crypto';
import { hash as digestOf } from 'node:crypto';
import { RxPayloadSchema, type NewPacketEvent, type RxPayload } from '@tinygs/contracts';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSharedState, type SharedState } from '../src/cluster/shared-state';
import { openDatabase, type Db } from '../src/db/connect';
import { EventBus } from '../src/events';
import { BatchWriter } from '../src/network/ingest/batch-writer';
import { inProcessStore, type BatchStore } from '../src/network/ingest/batch-store';
import { postgresThreadStore } from '../src/network/ingest/postgres/thread-store';
import { SatelliteCatalogue } from '../src/network/ingest/catalogue';
import { RxIngest } from '../src/network/ingest/rx-ingest';
import { SharedMergeIndex } from '../src/network/ingest/shared-merge';
import { NetworkMetrics } from '../src/network/metrics';
import { readCounters } from '../src/repositories/counters';
import { buildStation, buildUser, leoTle, setSatelliteTle } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { rxPayload } from './network-helpers';
import { REDIS_URL, deleteKeys, redisAvailable, redisPrefix } from './cluster-helpers';

const log = pino({ level: 'silent' });
const STATIONS = ['Alpha_GS', 'Bravo_GS', 'Charlie_GS', 'Delta_GS'];

interface Instance {
  ingest: RxIngest;
  writer: BatchWriter;
  metrics: NetworkMetrics;
  /** receptions accepted since this instance's last commit (redelivered if it dies) */
  uncommitted: number[];
  pending: Promise<unknown>[];
}

describe.skipIf(!DIALECTS.includes('postgres') || !redisAvailable).each(['main', 'writer'])(
  'merging across instances (Redis), batches stored on the %s thread',
  (where) => {
    let server: TestServer;
    let dbs: Db[];
    /** the instances' stores (an instance restarted with empty memory gets the same) */
    let stores: BatchStore[];
    let states: (SharedState & { close(): Promise<void> })[];
    let userId: string;
    const prefix = redisPrefix('merge');
    const events = new Map<string, NewPacketEvent[]>();

    beforeAll(async () => {
      server = await startTestServer('postgres');
      const db = server.ctx.database.db;
      await setSatelliteTle(db, 'Norbi', leoTle('NORBI', 46494));
      userId = (await buildUser(db)).id;
      for (const name of STATIONS) await buildStation(db, { userId, name });
      dbs = [openDatabase(server.ctx.config.database), openDatabase(server.ctx.config.database)];
      const config = server.ctx.config.database;
      if (config.kind !== 'postgres') throw new Error('expected PostgreSQL');
      stores =
        where === 'main'
          ? dbs.map((d) => inProcessStore(d.db, true))
          : await Promise.all(dbs.map(() => postgresThreadStore(config, true, log)));
      states = await Promise.all(
        ['a', 'b'].map((id) => openSharedState(REDIS_URL, prefix, id, log)),
      );
    });
    afterAll(async () => {
      for (const s of stores ?? []) await s.close();
      for (const s of states ?? []) await s.close();
      for (const d of dbs ?? []) await d.close();
      await deleteKeys(prefix);
      await server?.stop();
    });

    async function instance(n: 0 | 1): Promise<Instance> {
      const metrics = new NetworkMetrics();
      const bus = new EventBus();
      bus.subscribe('new-packet', (e) =>
        events.set(e.packetId, [...(events.get(e.packetId) ?? []), e]),
      );
      const db = dbs[n]!.db;
      const catalogue = new SatelliteCatalogue(db, log);
      await catalogue.refresh();
      // Not started: batches are committed where the test says.
      const writer = new BatchWriter(stores[n]!, bus, metrics, log);
      const merge = new SharedMergeIndex(states[n]!, metrics, log);
      return {
        ingest: new RxIngest(catalogue, merge, writer, metrics),
        writer,
        metrics,
        uncommitted: [],
        pending: [],
      };
    }

    const stationId = (name: string) => `${name}@${userId}`;

    it('makes one packet per frame with every reception, under any arrival order, split and commit order', async () => {
      const scenario = fc
        .array(fc.subarray([0, 1, 2, 3], { minLength: 1 }), { minLength: 1, maxLength: 5 })
        .chain((frames) => {
          const copies = frames.flatMap((stations, frame) =>
            stations.map((station) => ({ frame, station })),
          );
          const step = fc.record({
            instance: fc.constantFrom<0 | 1>(0, 1),
            // the next copy arrives before this one is handled (claims race)
            concurrent: fc.boolean(),
            // the broker delivers this copy to the other instance too
            redelivered: fc.boolean(),
            commit: fc.constantFrom('none', 'none', 'a', 'b', 'both'),
          });
          return fc.record({
            frames: fc.constant(frames),
            order: fc.shuffledSubarray(copies, {
              minLength: copies.length,
              maxLength: copies.length,
            }),
            steps: fc.array(step, { minLength: copies.length, maxLength: copies.length }),
            // instance a dies after this many copies (its uncommitted ones are delivered again)
            crashAfter: fc.option(fc.nat({ max: copies.length }), { nil: null }),
          });
        });

      await fc.assert(
        fc.asyncProperty(scenario, async ({ frames, order, steps, crashAfter }) => {
          const run = randomBytes(6).toString('hex');
          const data = frames.map((_, i) =>
            Buffer.from(`cluster-merge ${run} frame ${i}`).toString('base64'),
          );
          const db = server.ctx.database.db;
          const before = await readCounters(db);
          const stationsBefore = await db
            .selectFrom('stations')
            .select(['id', 'telemetryPackets'])
            .execute();
          const nodes: Instance[] = [await instance(0), await instance(1)];
          const payloads: RxPayload[] = order.map(({ frame, station }) =>
            RxPayloadSchema.parse(rxPayload({ data: data[frame], rssi: -100 - station })),
          );
          const deliver = (n: 0 | 1, i: number) => {
            const node = nodes[n]!;
            const { station } = order[i]!;
            node.uncommitted.push(i);
            const result = node.ingest.accept(
              { id: stationId(STATIONS[station]!), userId },
              payloads[i]!,
            );
            const settled = Promise.resolve(result).then((reason) => {
              if (reason && reason !== 'duplicate-reception')
                throw new Error(`reception dropped: ${reason}`);
            });
            node.pending.push(settled);
            return settled;
          };
          const commit = async (n: 0 | 1) => {
            const node = nodes[n]!;
            await Promise.all(node.pending);
            const done = node.uncommitted.splice(0);
            await node.writer.flush();
            return done;
          };

          for (const [i, s] of steps.entries()) {
            if (crashAfter === i) {
              // Instance a dies: what it had not committed is lost with it and delivered again
              // (QoS 1, not acknowledged) to a restarted a with empty memory.
              const lost = (await Promise.all(nodes[0]!.pending), nodes[0]!.uncommitted);
              nodes[0] = await instance(0);
              for (const j of lost) void deliver(0, j);
            }
            const handled = deliver(s.instance, i);
            if (s.redelivered) void deliver(s.instance === 0 ? 1 : 0, i);
            if (!s.concurrent) await handled;
            if (s.commit === 'a') await commit(0);
            else if (s.commit === 'b') await commit(1);
            else if (s.commit === 'both') await Promise.all([commit(0), commit(1)]);
          }
          await Promise.all([commit(0), commit(1)]);

          // One packet per frame, with exactly the stations that heard it.
          let receptions = 0;
          for (const [frame, heard] of frames.entries()) {
            const hash = digestOf(
              'sha256',
              Buffer.concat([Buffer.from('Norbi'), Buffer.from(data[frame]!, 'base64')]),
              'hex',
            );
            const packets = await db
              .selectFrom('packets')
              .selectAll()
              .where('frameHash', '=', hash)
              .execute();
            expect(packets).toHaveLength(1);
            const packet = packets[0]!;
            const rows = await db
              .selectFrom('receptions')
              .select('stationId')
              .where('packetId', '=', packet.id)
              .execute();
            const expected = heard.map((s) => stationId(STATIONS[s]!)).sort();
            expect(rows.map((r) => r.stationId).sort()).toEqual(expected);
            expect(packet.stationNumber).toBe(heard.length);
            // announced once, by whichever instance created it
            expect(events.get(packet.id)).toHaveLength(1);
            receptions += heard.length;
          }
          const after = await readCounters(db);
          expect(after.packets - before.packets).toBe(frames.length);
          expect(after.receptions - before.receptions).toBe(receptions);
          const stationsAfter = await db
            .selectFrom('stations')
            .select(['id', 'telemetryPackets'])
            .execute();
          for (const [s, name] of STATIONS.entries()) {
            const id = stationId(name);
            const moved =
              (stationsAfter.find((r) => r.id === id)?.telemetryPackets ?? 0) -
              (stationsBefore.find((r) => r.id === id)?.telemetryPackets ?? 0);
            expect(moved).toBe(frames.filter((heard) => heard.includes(s)).length);
          }
        }),
        { numRuns: Number(process.env.CLUSTER_MERGE_RUNS ?? 40) },
      );
    }, 240_000);
  },
);
