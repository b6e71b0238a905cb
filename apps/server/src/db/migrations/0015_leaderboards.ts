// Leaderboards (GET /v1/leaderboards): running aggregates the ingest batch updates, so a ranking
// reads at most one row per station and day, never the packets. All-time packets and record
// distance are the stations' and satellites' own counters; these tables add what those lack:
// - leaderboard_station_days: confirmed packets and record distance per station and UTC day
// - leaderboard_station_satellites: when a station first and last heard each satellite
// - leaderboard_satellite_days: packets per satellite and UTC day
// Filled from the stored receptions and packets here (docs/ARCHITECTURE.md, "Leaderboards").
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

const MS = 'bigint'; // epoch milliseconds

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The UTC day (YYYY-MM-DD) of an epoch-ms column. */
function utcDay(db: Kysely<unknown>, column: string): RawBuilder<string> {
  const ref = sql.ref(column);
  return isPostgres(db)
    ? sql`to_char(to_timestamp(${ref} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`
    : sql`strftime('%Y-%m-%d', ${ref} / 1000, 'unixepoch')`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite: the rows live in their primary key's b-tree (a range of days reads no second index).
  const clustered = isPostgres(db) ? sql`` : sql`without rowid`;
  await db.schema
    .createTable('leaderboard_station_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('station_id', 'text', (c) => c.notNull())
    .addColumn('confirmed_packets', 'integer', (c) => c.notNull())
    .addColumn('record_distance_km', 'double precision')
    .addPrimaryKeyConstraint('leaderboard_station_days_pk', ['day', 'station_id'])
    .modifyEnd(clustered)
    .execute();
  await db.schema
    .createTable('leaderboard_station_satellites')
    .addColumn('station_id', 'text', (c) => c.notNull())
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('first_heard', MS, (c) => c.notNull())
    .addColumn('last_heard', MS, (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_station_satellites_pk', ['station_id', 'satellite'])
    .modifyEnd(clustered)
    .execute();
  await db.schema
    .createTable('leaderboard_satellite_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('satellite', 'text', (c) => c.notNull())
    .addColumn('packets', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('leaderboard_satellite_days_pk', ['day', 'satellite'])
    .modifyEnd(clustered)
    .execute();

  // What the ingest would have counted for the receptions and packets stored so far
  // (network/ingest/leaderboard-tally.ts): receptions without CRC error; decoded ones confirmed
  // (a frame that failed its format's checks, stored unverified with an envelope, is not).
  await sql`
    insert into leaderboard_station_days (day, station_id, confirmed_packets, record_distance_km)
    select ${utcDay(db, 'r.server_time')}, r.station_id,
      sum(case when p.parsed is not null and p.unverified = 0 then 1 else 0 end), max(r.distance)
    from receptions r join packets p on p.id = r.packet_id
    where r.crc_error = 0
    group by 1, 2`.execute(db);
  await sql`
    insert into leaderboard_station_satellites (station_id, satellite, first_heard, last_heard)
    select r.station_id, p.satellite, min(r.server_time), max(r.server_time)
    from receptions r join packets p on p.id = r.packet_id
    where r.crc_error = 0
    group by r.station_id, p.satellite`.execute(db);
  await sql`
    insert into leaderboard_satellite_days (day, satellite, packets)
    select ${utcDay(db, 'server_time')}, satellite, count(*)
    from packets
    where crc_error = 0
    group by 1, 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('leaderboard_satellite_days').execute();
  await db.schema.dropTable('leaderboard_station_satellites').execute();
  await db.schema.dropTable('leaderboard_station_days').execute();
}
