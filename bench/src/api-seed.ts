// Fast generator for `bench:api`: users, stations and packets (heard by 1 to 20 stations each, 10.5
// on average, as the live network's captured packets are about ten) written straight
// into storage with multi-row inserts in large transactions, much faster than the simulator. The
// schema and the catalogue come from the server's own start-up; rows look like the ingest's.
import Database from 'better-sqlite3';
import pg from 'pg';
import { encryptSecret, type AppContext } from '@tinygs/server/testing';

export interface SeedPlan {
  users: number;
  stations: number;
  satellites: string[];
  /** epoch ms of packet 0; packet i is i * stepMs later */
  startMs: number;
  stepMs: number;
}

/** Where the rows go: an SQLite file or a PostgreSQL schema. */
export type SeedTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export const stationIdOf = (i: number, users: number) => `Station_${i}@${100_000 + (i % users)}`;
/** When packet i was received. */
export const timeOf = (i: number, plan: SeedPlan) => plan.startMs + Math.floor(i * plan.stepMs);
/** Packet i's id, time-ordered like the ingest's: eight hex digits of its second, then i. */
export const packetIdOf = (i: number, plan: SeedPlan) =>
  Math.floor(timeOf(i, plan) / 1000)
    .toString(16)
    .padStart(8, '0') + i.toString(16).padStart(16, '0');

type Row = (string | number | null)[];
type Insert = (
  table: string,
  columns: readonly string[],
  pgTypes: string[],
  rows: Row[],
) => Promise<void>;
type Exec = (sqlText: string, params?: unknown[]) => Promise<void>;

// Column lists with their PostgreSQL array types (SQLite takes the values as they are).
const PACKETS: [string, string][] = [
  ['id', 'text'],
  ['satellite', 'text'],
  ['norad', 'int'],
  ['server_time', 'int8'],
  ['raw', 'text'],
  ['frame_hash', 'text'],
  ['mode', 'text'],
  ['freq', 'float8'],
  ['sf', 'int'],
  ['cr', 'int'],
  ['bw', 'float8'],
  ['parsed', 'text'],
  ['crc_error', 'int'],
  ['is_test', 'int'],
  ['sat_lat', 'float8'],
  ['sat_lng', 'float8'],
  ['sat_alt', 'float8'],
  ['sun_lit', 'int'],
  ['eclipse_depth', 'float8'],
  ['foot_print', 'float8'],
  ['station_number', 'int'],
  ['tx_power_mw', 'float8'],
  ['historical', 'int'],
];
const RECEPTIONS: [string, string][] = [
  ['packet_id', 'text'],
  ['station_id', 'text'],
  ['user_id', 'text'],
  ['server_time', 'int8'],
  ['lat', 'float8'],
  ['lng', 'float8'],
  ['distance', 'float8'],
  ['elevation', 'float8'],
  ['azimuth', 'float8'],
  ['usec_time', 'int8'],
  ['doppler', 'float8'],
  ['frequency_offset', 'float8'],
  ['crc_error', 'int'],
  ['rssi', 'float8'],
  ['snr', 'float8'],
  ['frequency_error', 'float8'],
];
const STATIONS: [string, string][] = [
  ['id', 'text'],
  ['name', 'text'],
  ['user_id', 'text'],
  ['status', 'int'],
  ['lat', 'float8'],
  ['lng', 'float8'],
  ['elevation_m', 'float8'],
  ['satellite', 'text'],
  ['version', 'int'],
  ['local_ip', 'text'],
  ['wifi_rssi', 'int'],
  ['radio_status', 'int'],
  ['tx', 'int'],
  ['modem_conf', 'text'],
  ['last_seen', 'int8'],
  ['last_packet_time', 'int8'],
  ['creation_date', 'int8'],
  ['auto_tune', 'int'],
  ['description', 'text'],
  ['antenna', 'text'],
  ['telemetry_packets', 'int'],
  ['confirmed_packets', 'int'],
];
const USERS: [string, string][] = [
  ['id', 'text'],
  ['mqtt_password_enc', 'text'],
  ['created_at', 'int8'],
];

// A decoded frame the size of a real one (the live network's Norby beacons are about this big).
const parsedWith = (v: {
  frame: number | string;
  temp: number | string;
  voltage: number | string;
  charge: number | string;
}) =>
  JSON.stringify({
    header: {
      length: 142,
      receiverAddress: 4294967295,
      transmitterAddress: [10, 6, 1, 201],
      msgTypeId: 0,
    },
    payload: {
      frameNumber: v.frame,
      brkTempActive: v.temp,
      sesVoltage: v.voltage,
      sesChargeLevelMAh: v.charge,
      sopAngularVelocityVector: [252, 255, 206, 255, 169, 252],
      tinygsTxPower: 2000,
      tinygsTemp: v.temp,
      tinygsBatVoltage: 8.2,
      tinygsLat: 0,
      tinygsLng: 0,
    },
    type: 'Beacon',
    telemetry: true,
  });
const parsedOf = (i: number) =>
  parsedWith({
    frame: i,
    temp: 20 + (i % 15),
    voltage: 8000 + (i % 400),
    charge: 14000 + (i % 900),
  });
const RAWS = Array.from({ length: 64 }, (_, k) =>
  Buffer.from(Array.from({ length: 143 }, (_, b) => (b * 31 + k * 7) % 256)).toString('base64'),
);

function packetRow(i: number, plan: SeedPlan): Row {
  const satellite = plan.satellites[i % plan.satellites.length] as string;
  return [
    packetIdOf(i, plan),
    satellite,
    40_000 + (i % plan.satellites.length),
    timeOf(i, plan),
    RAWS[i % RAWS.length] as string,
    packetIdOf(i, plan),
    'LoRa',
    436.703,
    10,
    5,
    250,
    i % 17 === 0 ? null : parsedOf(i),
    0,
    0,
    ((i * 7) % 160) - 80,
    ((i * 13) % 360) - 180,
    520 + (i % 40),
    i % 3 === 0 ? 0 : 1,
    i % 3 === 0 ? 8.5 : -12.25,
    2446.95,
    receptionsOf(i),
    2000,
    0,
  ];
}

/** How many stations heard packet i: 1 to 20, spread evenly (mean 10.5). */
export const receptionsOf = (i: number) => 1 + ((i * 7919) % 20);
/** Apart enough that the stations of one packet are different ones (up to 20 of them). */
const strideOf = (plan: SeedPlan) => Math.max(1, Math.floor(plan.stations / 20));

function receptionRow(i: number, copy: number, plan: SeedPlan): Row {
  const station = (i + copy * strideOf(plan)) % plan.stations;
  const t = timeOf(i, plan) + copy * 40;
  return [
    packetIdOf(i, plan),
    stationIdOf(station, plan.users),
    String(100_000 + (station % plan.users)),
    t,
    (station % 140) - 70 + 0.123,
    ((station * 7) % 360) - 180 + 0.456,
    1500.5,
    21.5,
    182.25,
    t * 1000 + 17,
    1234.5,
    0,
    0,
    -112.5,
    6.25,
    150,
  ];
}

function stationRow(i: number, plan: SeedPlan, now: number): Row {
  return [
    stationIdOf(i, plan.users),
    `Station_${i}`,
    String(100_000 + (i % plan.users)),
    i % 3 === 0 ? 0 : 1,
    (i % 140) - 70 + 0.123,
    ((i * 7) % 360) - 180 + 0.456,
    650,
    plan.satellites[i % plan.satellites.length] as string,
    2603242,
    '192.168.1.50',
    -67,
    0,
    1,
    '{"mode":"LoRa","freq":436.703,"sf":10,"cr":5,"bw":250}',
    now - (i % 600) * 1000,
    now - (i % 3600) * 1000,
    now - 86_400_000 * (1 + (i % 400)),
    [137, 433, 900, 2400, 0, null][i % 6] ?? null,
    i % 5 === 0 ? 'Rooftop dipole, 6 m above ground' : '',
    'Dipole',
    100 + (i % 50),
    90 + (i % 40),
  ];
}

/** SQLite's page cache while seeding (KiB). */
const SQLITE_SEED_CACHE_KIB = 256 * 1024;

/**
 * Runs `load` with the secondary indexes of `tables` dropped, then creates them again as they were
 * (their own CREATE INDEX statements): millions of rows inserted into an index in station order
 * touch its pages at random, while creating it afterwards sorts them once. The rows and the schema
 * end as they would have.
 */
async function withoutIndexes(
  db: Database.Database,
  tables: readonly string[],
  load: () => Promise<void>,
): Promise<void> {
  const indexes = db
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and sql is not null
       and tbl_name in (${tables.map(() => '?').join(',')})`,
    )
    .all(...tables) as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`drop index "${name}"`);
  try {
    await load();
  } finally {
    for (const { sql } of indexes) db.exec(sql);
  }
}

/** Multi-row inserts: this many rows per statement (well under SQLite's 32,766 parameters). */
const SQLITE_ROWS_PER_STATEMENT = 500;
const ROWS_PER_TRANSACTION = 20_000;

function sqliteInsert(
  db: Database.Database,
  table: string,
  columns: readonly string[],
  rows: Row[],
): void {
  const one = `(${columns.map(() => '?').join(',')})`;
  const statement = (n: number) =>
    db.prepare(
      `insert into ${table} (${columns.join(',')}) values ${Array(n).fill(one).join(',')}`,
    );
  const full = statement(SQLITE_ROWS_PER_STATEMENT);
  let i = 0;
  for (; i + SQLITE_ROWS_PER_STATEMENT <= rows.length; i += SQLITE_ROWS_PER_STATEMENT)
    full.run(rows.slice(i, i + SQLITE_ROWS_PER_STATEMENT).flat());
  if (i < rows.length) statement(rows.length - i).run(rows.slice(i).flat());
}

async function withTarget(
  target: SeedTarget,
  work: (insert: Insert, exec: Exec, sqlite: Database.Database | null) => Promise<void>,
): Promise<void> {
  if (target.kind === 'sqlite') {
    const db = new Database(target.file);
    // Nobody else has the file open while it is seeded: pages go straight into it, once, instead
    // of into the WAL and again into the file at every checkpoint (the rollback journal stays in
    // memory; better-sqlite3's defensive mode refuses OFF). The server finds it in WAL mode.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    // Index pages stay in memory between transactions instead of being read back from the file.
    db.pragma(`cache_size = -${SQLITE_SEED_CACHE_KIB}`);
    try {
      await work(
        async (table, columns, _types, rows) =>
          db.transaction(() => sqliteInsert(db, table, columns, rows))(),
        async (sqlText, params = []) => void db.prepare(sqlText).run(...params),
        db,
      );
    } finally {
      db.pragma('journal_mode = WAL');
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    await work(
      async (table, columns, types, rows) => {
        // One statement per batch: each column travels as one array parameter.
        const arrays = columns.map((_, c) => rows.map((r) => r[c] ?? null));
        const selects = types.map((t, k) => `$${k + 1}::${t}[]`).join(',');
        await client.query(
          `insert into ${table} (${columns.join(',')}) select * from unnest(${selects})`,
          arrays,
        );
      },
      async (sqlText, params = []) => {
        let n = 0;
        await client.query(
          sqlText.replace(/\?/g, () => `$${++n}`),
          params,
        );
      },
      null,
    );
    // This schema's tables only: the database may hold other large schemas (another bench's).
    // A partitioned table's analyze covers its partitions.
    const { rows } = await client.query<{ name: string }>(
      `select quote_ident(relname) as name from pg_class
       where relnamespace = current_schema()::regnamespace and relkind in ('r', 'p')
         and not relispartition`,
    );
    await client.query(`analyze ${rows.map((r) => r.name).join(', ')}`);
  } finally {
    await client.end();
  }
}

const names = (cols: [string, string][]) => cols.map((c) => c[0]);
const types = (cols: [string, string][]) => cols.map((c) => c[1]);

/** Names of the catalogue's Supported satellites (what the seeded stations listen to). */
export async function supportedSatellites(db: AppContext['database']['db']): Promise<string[]> {
  const rows = await db
    .selectFrom('satellites')
    .select('name')
    .where('status', '=', 'Supported')
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Users and stations, once. */
export async function seedStations(
  target: SeedTarget,
  plan: SeedPlan,
  serverSecret: string,
): Promise<void> {
  const now = Date.now();
  await withTarget(target, async (insert) => {
    const enc = encryptSecret('bench-password', serverSecret);
    const users: Row[] = Array.from({ length: plan.users }, (_, u) => [
      String(100_000 + u),
      enc,
      now,
    ]);
    await insert('users', names(USERS), types(USERS), users);
    for (let lo = 0; lo < plan.stations; lo += ROWS_PER_TRANSACTION) {
      const rows: Row[] = [];
      for (let i = lo; i < Math.min(plan.stations, lo + ROWS_PER_TRANSACTION); i++)
        rows.push(stationRow(i, plan, now));
      await insert('stations', names(STATIONS), types(STATIONS), rows);
    }
  });
}

// PostgreSQL makes the rows itself from generate_series (the same rows as packetRow and
// receptionRow, receptionsOf(i) of them per packet): ten million packets cannot travel from Node
// in reasonable time. Small enough statements that both connections get work at 100,000 packets.
const GENERATED_PER_STATEMENT = 50_000;
const PARSED_FORMAT = parsedWith({ frame: '@1', temp: '@2', voltage: '@3', charge: '@4' }).replace(
  /"@(\d)"/g,
  '%$1$$s',
);
const ID_SQL = `lpad(to_hex(t / 1000), 8, '0') || lpad(to_hex(i), 16, '0')`;
const SERIES_SQL = `generate_series($1::bigint, $2::bigint) i, lateral (select $3::bigint + i * $4::bigint as t, i % $5::bigint as s) x`;

async function generateRange(client: pg.Client, plan: SeedPlan, lo: number, hi: number) {
  const series = [lo, hi - 1, plan.startMs, plan.stepMs];
  await client.query(
    `insert into packets (${names(PACKETS).join(',')})
     select ${ID_SQL}, ($6::text[])[1 + i % cardinality($6::text[])],
       40000 + i % cardinality($6::text[]), t, ($7::text[])[1 + i % 64], ${ID_SQL}, 'LoRa', 436.703,
       10, 5, 250,
       case when i % 17 = 0 then null
         else format($8::text, i, 20 + i % 15, 8000 + i % 400, 14000 + i % 900) end,
       0, 0, (i * 7) % 160 - 80, (i * 13) % 360 - 180, 520 + i % 40,
       case when i % 3 = 0 then 0 else 1 end, case when i % 3 = 0 then 8.5 else -12.25 end,
       2446.95, 1 + (i * 7919) % 20, 2000, 0
     from ${SERIES_SQL}`,
    [...series, plan.stations, plan.satellites, RAWS, PARSED_FORMAT],
  );
  // The packet's id made once for its ten receptions, not once for each (materialized: inlined,
  // the expression would be evaluated for every reception row).
  await client.query(
    `with p as materialized (select i, t, ${ID_SQL} as id from ${SERIES_SQL})
     insert into receptions (${names(RECEPTIONS).join(',')})
     select id, 'Station_' || r || '@' || (100000 + r % $6::bigint),
       (100000 + r % $6::bigint)::text, t + c * 40, r % 140 - 70 + 0.123,
       (r * 7) % 360 - 180 + 0.456, 1500.5, 21.5, 182.25, (t + c * 40) * 1000 + 17, 1234.5, 0, 0,
       -112.5, 6.25, 150
     from p,
       lateral generate_series(0, (i * 7919) % 20) c,
       lateral (select (i + c * $7::bigint) % $5::bigint as r) y`,
    [...series, plan.stations, plan.users, strideOf(plan)],
  );
}

/** The primary keys, unique constraints and other indexes of a table, as PostgreSQL prints them. */
interface Keys {
  table: string;
  constraints: { name: string; definition: string }[];
  /** CREATE INDEX statements */
  indexes: { name: string; definition: string }[];
}

// The same catalogue reads as migration 0016's: on a partitioned table they name the parent's
// keys and indexes, and creating those again on the parent builds every partition's.
async function keysOf(client: pg.Client, table: string): Promise<Keys> {
  const constraints = await client.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = to_regclass($1) and contype in ('p', 'u') order by oid`,
    [table],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i where i.indrelid = to_regclass($1)
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
     order by i.indexrelid`,
    [table],
  );
  return { table, constraints: constraints.rows, indexes: indexes.rows };
}

async function dropKeys(client: pg.Client, keys: Keys): Promise<void> {
  for (const c of keys.constraints)
    await client.query(`alter table ${keys.table} drop constraint "${c.name}"`);
  for (const index of keys.indexes) await client.query(`drop index ${index.name}`);
}

async function createKeys(client: pg.Client, keys: Keys): Promise<void> {
  for (const c of keys.constraints)
    await client.query(`alter table ${keys.table} add constraint "${c.name}" ${c.definition}`);
  // A partitioned table's index prints as CREATE INDEX ... ON ONLY, which would create the parent's
  // alone (invalid until every partition's is attached); without ONLY it builds them all.
  for (const index of keys.indexes)
    await client.query(index.definition.replace(/^(CREATE (?:UNIQUE )?INDEX \S+ ON) ONLY /, '$1 '));
}

/** The tables the packets go into, each with its own connection for its keys and indexes. */
const PACKET_TABLES = ['packets', 'receptions'] as const;
/** One generating connection per core of this 2-core machine; each statement uses one core. */
const SEED_CONNECTIONS = 2;
// The index builds' sorts: at one million packets 256MB made the station index 60% slower than
// 1GB (4GB no faster); a month partition at ten million packets holds 28 million receptions, about
// 2.2GB to sort (each partition's index is built on its own).
const SEED_MAINTENANCE_WORK_MEM = '3GB';

/**
 * Packets [from, to) and their receptions, generated by the server over several connections with
 * the keys and indexes of both tables dropped, then built again as they were: 100 million
 * receptions inserted into a primary key and a station index touch their pages at random (and
 * write each page whole into the WAL again after every checkpoint), while building them
 * afterwards sorts each once and writes it once. The rows and the schema end as they would have.
 */
async function generateInPostgres(
  url: string,
  plan: SeedPlan,
  from: number,
  to: number,
): Promise<SeedPhases> {
  const clients = await Promise.all(
    Array.from({ length: SEED_CONNECTIONS }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`set maintenance_work_mem = '${SEED_MAINTENANCE_WORK_MEM}'`);
      return client;
    }),
  );
  const [first] = clients as [pg.Client];
  try {
    const keys = await Promise.all(PACKET_TABLES.map((table) => keysOf(first, table)));
    const t0 = Date.now();
    for (const k of keys) await dropKeys(first, k);
    let next = from;
    await Promise.all(
      clients.map(async (client) => {
        while (next < to) {
          const lo = next;
          next = Math.min(to, lo + GENERATED_PER_STATEMENT);
          await generateRange(client, plan, lo, next);
        }
      }),
    );
    const t1 = Date.now();
    // Each table on a connection of its own: building one's indexes does not wait for the other's.
    // Each build uses PostgreSQL's parallel workers already; building a table's two indexes at once
    // (per partition, on both connections) was slower on this 2-core machine.
    await Promise.all(keys.map((k, n) => createKeys(clients[n % clients.length] as pg.Client, k)));
    return { rowsS: (t1 - t0) / 1000, indexesS: (Date.now() - t1) / 1000 };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** Seconds a PostgreSQL seed spent inserting the rows and building the keys and indexes. */
export interface SeedPhases {
  rowsS: number;
  indexesS: number;
}

/**
 * Packets [from, to) with their receptions, then the counters the ingest keeps. Returns the
 * phases of a PostgreSQL seed (null on SQLite).
 */
export async function seedPackets(
  target: SeedTarget,
  plan: SeedPlan,
  from: number,
  to: number,
): Promise<SeedPhases | null> {
  let phases: SeedPhases | null = null;
  await withTarget(target, async (insert, exec, sqlite) => {
    if (target.kind === 'postgres') phases = await generateInPostgres(target.url, plan, from, to);
    else if (sqlite)
      await withoutIndexes(sqlite, ['packets', 'receptions'], async () => {
        for (let lo = from; lo < to; lo += ROWS_PER_TRANSACTION) {
          const hi = Math.min(to, lo + ROWS_PER_TRANSACTION);
          const packets: Row[] = [];
          const receptions: Row[] = [];
          for (let i = lo; i < hi; i++) {
            packets.push(packetRow(i, plan));
            for (let copy = 0; copy < receptionsOf(i); copy++)
              receptions.push(receptionRow(i, copy, plan));
          }
          await insert('packets', names(PACKETS), types(PACKETS), packets);
          await insert('receptions', names(RECEPTIONS), types(RECEPTIONS), receptions);
        }
      });
    await exec("delete from counters where name in ('packets', 'members', 'stations')");
    await exec("insert into counters (name, value) values ('packets', ?)", [to]);
    await exec("insert into counters (name, value) values ('members', ?)", [plan.users]);
    await exec("insert into counters (name, value) values ('stations', ?)", [
      Math.ceil((plan.stations * 2) / 3),
    ]);
    const perSatellite = Math.floor(to / plan.satellites.length);
    for (const name of plan.satellites) {
      await exec(
        'update satellites set frames = ?, confirmed_packets = ?, last_packet_time = ? where name = ?',
        [perSatellite, perSatellite, timeOf(to - 1, plan), name],
      );
    }
  });
  return phases;
}
