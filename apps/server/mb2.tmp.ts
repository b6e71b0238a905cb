import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from './src/db/connect';
import { migrateToLatest } from './src/db/migrate';
import { insertPackets } from './src/repositories/packets';
const dir = mkdtempSync(join(tmpdir(), 'mb-'));
const d = openDatabase({ kind: 'sqlite', file: join(dir, 'x.db') });
await migrateToLatest(d.db);
if (process.env.CACHE) await sql.raw(`PRAGMA cache_size = ${process.env.CACHE}`).execute(d.db);
if (process.env.DROPIDX) for (const i of process.env.DROPIDX.split(',')) await sql.raw(`DROP INDEX ${i}`).execute(d.db);
const N = 250;
const mk = (b: number) => { const now = Date.now(); return Array.from({ length: N }, (_, i) => ({ id: `${b}-${i}-${Math.random()}`, satellite: 'X', norad: 1, serverTime: now, raw: 'VEdEAQ'.repeat(5), frameHash: randomBytes(32).toString('hex'), mode: 'LoRa', freq: 436.5, sf: 10, cr: 5, bw: 125, bitrate: null, freqDev: null, rxBw: null, parsed: 'x'.repeat(500), crcError: 0, isTest: 0, satLat: 1, satLng: 2, satAlt: 500, sunLit: 1, eclipseDepth: -3, footPrint: 2500, stationNumber: 1, txPowerMw: 500, historical: 0 })); };
const variant = process.argv[2];
let total = 0;
for (let b = 0; b < Number(process.env.B ?? 200); b++) {
  const rows = mk(b);
  const t0 = performance.now();
  await d.db.transaction().execute(async (trx) => {
    if (variant === 'json') await insertPackets(trx, rows);
    else if (variant === 'kysely') { for (let i = 0; i < rows.length; i += 500) await trx.insertInto('packets').values(rows.slice(i, i + 500)).execute(); }
    else if (variant === 'raw') {
      await sql`INSERT INTO packets (id, satellite, norad, server_time, raw, frame_hash, mode, freq, sf, cr, bw, bitrate, freq_dev, rx_bw, parsed, crc_error, is_test, sat_lat, sat_lng, sat_alt, sun_lit, eclipse_depth, foot_print, station_number, tx_power_mw, historical) VALUES ${sql.join(rows.map((p) => sql`(${p.id}, ${p.satellite}, ${p.norad}, ${p.serverTime}, ${p.raw}, ${p.frameHash}, ${p.mode}, ${p.freq}, ${p.sf}, ${p.cr}, ${p.bw}, ${p.bitrate}, ${p.freqDev}, ${p.rxBw}, ${p.parsed}, ${p.crcError}, ${p.isTest}, ${p.satLat}, ${p.satLng}, ${p.satAlt}, ${p.sunLit}, ${p.eclipseDepth}, ${p.footPrint}, ${p.stationNumber}, ${p.txPowerMw}, ${p.historical})`))}`.execute(trx);
    }
  });
  total += performance.now() - t0;
}
console.log(variant, (total / (Number(process.env.B ?? 200) * N) * 1000).toFixed(1), 'us/row incl commit');
