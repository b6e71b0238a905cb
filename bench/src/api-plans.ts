// Query plans of the public API's reads on the seeded data: every statement the repositories send
// for the measured calls is captured through Kysely's log and explained, and a full scan of
// packets or receptions is flagged (both tables grow without bound; every read must use an index).
// On PostgreSQL's month partitions (migration 0016) the partitions each plan reads are listed, and
// a read of one packet must read one month of each table.
import Database from 'better-sqlite3';
import { CamelCasePlugin, CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import {
  lastTelemetry,
  countPacketsUpTo,
  exportPage,
  findPacket,
  firstPackets,
  latestPackets,
  packetDetailQuery,
  receptionsOf,
  stationFramesSince,
  stationPackets,
  findStation,
  STATION_STATS_MAX_FRAMES,
  listStationListItems,
  type Database as Schema,
} from '@tinygs/server/testing';
import type { SeedTarget } from './api-seed';

export interface QueryPlan {
  call: string;
  sql: string;
  plan: string[];
  /** the plan reads every row of packets or receptions (or of one of their partitions) */
  fullScan: boolean;
  /** PostgreSQL: the partitions of packets and receptions the statement read */
  partitions: string[];
  /** PostgreSQL: the partitions in its plan (also those left out at run time, which are still
   * opened and locked for every execution) */
  planned: string[];
  /** PostgreSQL: the statement's execution time on the seeded data (EXPLAIN ANALYZE) */
  executionMs?: number;
}

/** Calls that read one packet by its id: pruning while planning must leave one month of each table. */
const BY_PACKET_ID = /^\/v1\/packet\/\{id\}/;

/** What is wrong with a set of plans: full scans, and packet reads that were not pruned. */
export function planFailures(plans: QueryPlan[]): string[] {
  const failures: string[] = [];
  for (const p of plans) {
    if (p.fullScan) failures.push(`FULL SCAN in ${p.call}: ${p.plan.join(' | ')}`);
    if (!BY_PACKET_ID.test(p.call)) continue;
    for (const table of ['packets', 'receptions']) {
      const read = p.planned.filter((name) => name.startsWith(`${table}_`));
      if (read.length > 1) failures.push(`NOT PRUNED in ${p.call}: ${read.join(', ')}`);
    }
  }
  return failures;
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
      // PostgreSQL runs each read (all are reads) for its execution time on the seeded data.
      const prefix = target.kind === 'sqlite' ? 'explain query plan ' : 'explain (analyze) ';
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
          : // A partition the planner knows to be empty (no pages: cost 0) holds nothing to scan.
            /Seq Scan on (packets|receptions)(_\w+)?\b/.test(line) &&
            !/cost=0\.00\.\.0\.00 /.test(line),
      );
      // Partitions left out at run time show as "(never executed)": planned, but not read. (A
      // bitmap index scan names its index after "on", not its table.)
      const named = (lines: string[]) => [
        ...new Set(lines.flatMap((l) => /\bon ((?:packets|receptions)_\w+)/.exec(l)?.[1] ?? [])),
      ];
      const scans = plan.filter((line) => !line.includes('Bitmap Index Scan on '));
      const planned = named(scans);
      const partitions = named(scans.filter((line) => !line.includes('(never executed)')));
      const executed = plan
        .map((line) => /^Execution Time: ([\d.]+) ms/.exec(line.trim())?.[1])
        .find(Boolean);
      plans.push({
        call: name,
        sql: query.sql,
        plan,
        fullScan,
        partitions,
        planned,
        ...(executed ? { executionMs: Number(executed) } : {}),
      });
    }
    return plans;
  } finally {
    await db.destroy();
  }
}
