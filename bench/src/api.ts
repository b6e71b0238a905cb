// `npm run bench:api`: the public read API under 50 concurrent clients with 10,000 stations and
// 100,000 then 1,000,000 packets in SQLite. The ceiling, measured in the same run, is a bare
// node:http server sending the same bytes from memory. Writes bench/results/api.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { loadConfig } from '../../apps/server/src/config';
import { encryptSecret } from '../../apps/server/src/lib/crypto';
import { createServer } from '../../apps/server/src/server';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '10000' },
    sizes: { type: 'string', default: '100000,1000000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const STATIONS = Number(values.stations);
const SIZES = String(values.sizes).split(',').map(Number);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);

async function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => ok(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} never answered`);
}

function fill(
  file: string,
  from: number,
  to: number,
  stationIds: string[],
  satellites: string[],
): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insertPacket =
    db.prepare(`insert into packets (id, satellite, norad, server_time, raw, frame_hash, mode, freq, sf, cr, bw,
    parsed, crc_error, is_test, sat_lat, sat_lng, sat_alt, sun_lit, eclipse_depth, foot_print, station_number, tx_power_mw, historical)
    values (?, ?, 46494, ?, ?, ?, 'LoRa', 436.703, 10, 5, 250, ?, 0, 0, ?, ?, 550, 1, -10, 2500, 1, 100, 0)`);
  const insertReception =
    db.prepare(`insert into receptions (packet_id, station_id, user_id, server_time, lat, lng, distance,
    elevation, azimuth, usec_time, doppler, frequency_offset, crc_error, rssi, snr, frequency_error)
    values (?, ?, ?, ?, 40, -3, 1500, 20, 180, ?, 1200, 0, 0, -110, 5, 100)`);
  const parsed = JSON.stringify({
    payload: { tinygsTxPower: 100, tinygsTemp: 21.5, tinygsBatVoltage: 7.9 },
  });
  const raw = randomBytes(64).toString('base64');
  const start = Date.now() - to * 1000;
  const batch = db.transaction((lo: number, hi: number) => {
    for (let i = lo; i < hi; i++) {
      const id = i.toString(16).padStart(24, '0');
      const t = start + i * 1000;
      const station = stationIds[i % stationIds.length] as string;
      insertPacket.run(
        id,
        satellites[i % satellites.length],
        t,
        raw,
        id,
        parsed,
        (i % 160) - 80,
        (i % 360) - 180,
      );
      insertReception.run(id, station, station.split('@')[1], t, t * 1000);
    }
  });
  for (let lo = from; lo < to; lo += 10_000) batch(lo, Math.min(to, lo + 10_000));
  db.prepare(
    "insert into counters (name, value) values ('packets', ?) on conflict(name) do update set value = excluded.value",
  ).run(to);
  db.close();
}

async function cannon(url: string) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.non2xx,
  };
}

/** A bare node:http server, in its own process like the API, sending fixed bytes from memory. */
async function startCeiling(
  bodies: Record<string, string>,
): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const file = join(mkdtempSync(join(tmpdir(), 'tinygs-ceiling-')), 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const script = `const http=require('node:http');const b=JSON.parse(require('node:fs').readFileSync(process.env.BODIES,'utf8'));
http.createServer((q,s)=>{const x=b[q.url]||'';s.writeHead(200,{'content-type':'application/json','content-length':Buffer.byteLength(x)});s.end(x)}).listen(${port},'127.0.0.1')`;
  const proc = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BODIES: file },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/`);
  return { url, proc };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-bench-api-'));
  const env = {
    DATA_DIR: dataDir,
    SIMULATED_STATIONS: '0',
    LOG_LEVEL: 'silent',
    MQTT_PORT: '0',
    SERVER_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  };
  // Migrate and seed the catalogue with the server's own start-up, then fill rows directly.
  const setup = await createServer(loadConfig(env), { log: pino({ level: 'silent' }), parts: [] });
  const satellites = (
    await setup.ctx.database.db
      .selectFrom('satellites')
      .select('name')
      .where('status', '=', 'Supported')
      .execute()
  ).map((r) => r.name);
  await setup.close();
  const file = join(dataDir, 'tinygs.db');
  const db = new Database(file);
  const users = Array.from({ length: 1000 }, (_, i) => String(100000 + i));
  const insUser = db.prepare(
    'insert into users (id, email, mqtt_password_enc, created_at) values (?, null, ?, ?)',
  );
  const insStation =
    db.prepare(`insert into stations (id, name, user_id, status, lat, lng, creation_date, last_seen, satellite, version)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, 2603242)`);
  const stationIds: string[] = [];
  db.transaction(() => {
    const enc = encryptSecret('x', env.SERVER_SECRET);
    for (const u of users) insUser.run(u, enc, Date.now());
    for (let i = 0; i < STATIONS; i++) {
      const user = users[i % users.length] as string;
      const id = `Station_${i}@${user}`;
      stationIds.push(id);
      insStation.run(
        id,
        `Station_${i}`,
        user,
        i % 3 === 0 ? 0 : 1,
        (i % 140) - 70,
        ((i * 7) % 360) - 180,
        Date.now(),
        Date.now(),
        satellites[i % satellites.length],
      );
    }
  })();
  db.close();

  const results: Record<string, unknown>[] = [];
  let filled = 0;
  for (const size of SIZES) {
    const t0 = Date.now();
    fill(file, filled, size, stationIds, satellites);
    filled = size;
    console.log(
      `filled ${size.toLocaleString()} packets in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const port = await freePort();
    const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repo,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json' },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(`${base}/healthz`);
    const packetId = (size - 1).toString(16).padStart(24, '0');
    const routes: Record<string, string> = {
      '/v1/stations': '/v1/stations',
      '/v2/packets?satellite=': `/v2/packets?satellite=${encodeURIComponent(satellites[0] as string)}`,
      '/v1/packet/{id}': `/v1/packet/${packetId}`,
      '/v1/station/{id}': `/v1/station/${encodeURIComponent(stationIds[5] as string)}`,
    };
    const bodies: Record<string, string> = { '/': 'ok' };
    for (const [name, path] of Object.entries(routes))
      bodies[`/${name.replace(/\W/g, '')}`] = await (await fetch(base + path)).text();
    const ceiling = await startCeiling(bodies);
    for (const [name, path] of Object.entries(routes)) {
      const api = await cannon(base + path);
      const flat = await cannon(`${ceiling.url}/${name.replace(/\W/g, '')}`);
      const row = {
        packets: size,
        route: name,
        bytes: Buffer.byteLength(bodies[`/${name.replace(/\W/g, '')}`] ?? ''),
        ...api,
        ceilingReqPerSec: flat.reqPerSec,
        ratio: api.reqPerSec / flat.reqPerSec,
      };
      results.push(row);
      console.log(
        `${size.toLocaleString().padStart(9)} ${name.padEnd(24)} ${String(Math.round(api.reqPerSec)).padStart(6)} req/s  p50 ${api.p50Ms} ms  p99 ${api.p99Ms} ms  ceiling ${Math.round(flat.reqPerSec)} req/s  ratio ${row.ratio.toFixed(2)}  errors ${api.errors}`,
      );
    }
    ceiling.proc.kill();
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
  const out = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? '',
      memGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      loadAverage1m: loadavg()[0],
    },
    storage: 'sqlite',
    stations: STATIONS,
    connections: CONNECTIONS,
    secondsPerRoute: SECONDS,
    goals: { p99Ms: 50, ratioToCeiling: 0.5 },
    results,
  };
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  writeFileSync(join(repo, 'bench/results/api.json'), `${JSON.stringify(out, null, 2)}\n`);
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
