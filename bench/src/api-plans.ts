// Query plans of the public API's reads on the seeded data: every statement the repositories send
// for the measured calls is captured through Kysely's log and explained, and a full scan of
// packets or receptions is flagged (both tables grow without bound; every read must use an index).
import Database from 'better-sqlite3';
import { CamelCasePlugin, CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database as Schema } from '../../apps/server/src/db/schema';
import { lastTelemetry } from '../../apps/server/src/repositories/public/catalogue-reads';
import {
  countPacketsUpTo,
  exportPage,
  findPacket,
  firstPackets,
  latestPackets,
  packetDetailQuery,
  receptionsOf,
  stationFramesSince,
  stationPackets,
} from '../../apps/server/src/repositories/public/packet-reads';
import { findStation } from '../../apps/server/src/repositories/public/station-reads';
import { STATION_STATS_MAX_FRAMES } from '../../apps/server/src/public-api/station-routes';
import { listStationListItems } from '../../apps/server/src/repositories/stations';
import type { SeedTarget } from './api-seed';

export interface QueryPlan {
  call: string;
  sql: string;
  plan: string[];
  /** the plan reads every row of packets or receptions */
  fullScan: boolean;
}

export async function explainReads(
  target: SeedTarget,
  sample: { satellite: string; stationId: string; packetId: string; serverTime: number },
): Promise<QueryPlan[]> {
  const captured: { call: string; query: CompiledQuery }[] = [];
  let call = '';
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') captured.push({ call, query: event.query });
  };
  const db =
    target.kind === 'sqlite'
      ? new Kysely<Schema>({
          dialect: new SqliteDialect({ database: new Database(target.file) }),
          plugins: [new CamelCasePlugin()],
          log,
        })
      : new Kysely<Schema>({
          dialect: new PostgresDialect({
            pool: new pg.Pool({ connectionString: target.url, max: 1 }),
          }),
          plugins: [new CamelCasePlugin()],
          log,
        });
  const monthAgo = sample.serverTime - 30 * 86_400_000;
  const calls: [string, () => Promise<unknown>][] = [
    ['/v1/satellite/{name} last telemetry', () => lastTelemetry(db, sample.satellite)],
    ['/v2/packets', () => latestPackets(db, null, 50)],
    ['/v2/packets?satellite=', () => latestPackets(db, sample.satellite, 50)],
    ['/v2/packets?station=', () => stationPackets(db, sample.stationId, null, 50)],
    ['/v1/packets?before=', () => stationPackets(db, sample.stationId, sample.serverTime, 50)],
    ['/v2/packetsIna more than 100', () => countPacketsUpTo(db, sample.satellite, 101)],
    ['/v2/packetsIna first 100', () => firstPackets(db, sample.satellite, 100)],
    ['/v1/packet/{id}', () => findPacket(db, sample.packetId)],
    ['/v1/packet/{id} receptions', () => receptionsOf(db, sample.packetId)],
    // PostgreSQL answers the packet page with one statement (json_agg of its receptions).
    ...(target.kind === 'postgres'
      ? ([
          ['/v1/packet/{id} one statement', () => packetDetailQuery(db, sample.packetId).execute()],
        ] as [string, () => Promise<unknown>][])
      : []),
    ['/v1/stations', () => listStationListItems(db)],
    ['/v1/station/{id}', () => findStation(db, sample.stationId)],
    [
      '/v1/station/{id}/statistics',
      () => stationFramesSince(db, sample.stationId, monthAgo, STATION_STATS_MAX_FRAMES),
    ],
    [
      '/v1/export/packets?satellite=',
      () =>
        exportPage(
          db,
          { satellite: sample.satellite },
          { serverTime: sample.serverTime, id: sample.packetId },
          1000,
        ),
    ],
    [
      '/v1/export/packets?station=',
      () =>
        exportPage(
          db,
          { stationId: sample.stationId },
          { serverTime: sample.serverTime, id: sample.packetId },
          1000,
        ),
    ],
  ];
  try {
    for (const [name, run] of calls) {
      call = name;
      await run();
    }
    const plans: QueryPlan[] = [];
    for (const { call: name, query } of [...captured]) {
      const prefix = target.kind === 'sqlite' ? 'explain query plan ' : 'explain ';
      const result = await db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
      );
      const plan = result.rows.map((r) =>
        String(target.kind === 'sqlite' ? r.detail : r['QUERY PLAN']),
      );
      const fullScan = plan.some((line) =>
        target.kind === 'sqlite'
          ? /^SCAN (packets|receptions)\b/.test(line.trim()) &&
            !/USING (COVERING )?INDEX/.test(line)
          : /Seq Scan on (packets|receptions)\b/.test(line),
      );
      plans.push({ call: name, sql: query.sql, plan, fullScan });
    }
    return plans;
  } finally {
    await db.destroy();
  }
}
