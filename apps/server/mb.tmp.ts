import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './src/db/connect';
import { migrateToLatest } from './src/db/migrate';
import { insertPackets, insertReceptions, addDailyStats, addSatelliteStats } from './src/repositories/packets';
import { addStationReceptionStats } from './src/repositories/stations';
import { addToCounters } from './src/repositories/counters';
import { newObjectId } from './src/lib/crypto';
const dir = mkdtempSync(join(tmpdir(), 'mb-'));
const d = openDatabase({ kind: 'sqlite', file: join(dir, 'x.db') });
await migrateToLatest(d.db);
for (let u = 0; u < 100; u++) await d.db.insertInto('users').values({ id: String(u), email: null, emailVal: 0, acceptedTerms: 0, newsletterFrequency: 'none', mqttPasswordEnc: 'x', telegramChatId: null, displayName: null, isAdmin: 0, createdAt: 0 }).execute();
const ids: string[] = [];
for (let s = 0; s < 1000; s++) { const id = `S${s}@${s % 100}`; ids.push(id); await d.db.insertInto('stations').values({ id, name: `S${s}`, userId: String(s % 100), status: 1, lat: 0, lng: 0, elevationM: null, satellite: null, version: 1, gitVersion: null, board: null, mac: null, localIp: null, wifiRssi: null, radioStatus: null, tx: 0, modemConf: null, lastSeen: 0, lastPacketTime: null, creationDate: 0, autoTune: null, test: 0, autoUpdate: 1, beta: 0, description: '', antenna: null, antennaBandLowMhz: 100, antennaBandHighMhz: 960, recordDistanceKm: 0, telemetryPackets: 0, confirmedPackets: 0, crcErrors: 0 }).execute(); }
const N = Number(process.env.N ?? 250);
if (process.env.NOCKPT) await (await import('kysely')).sql`PRAGMA wal_autocheckpoint=0`.execute(d.db);
const times: Record<string, number> = {};
const t = async (k: string, f: () => Promise<unknown>) => { const a = performance.now(); await f(); times[k] = (times[k] ?? 0) + performance.now() - a; };
for (let b = 0; b < 300; b++) {
  const now = Date.now();
  const cr = await import('node:crypto');
  const pk = Array.from({ length: N }, (_, i) => ({ id: newObjectId(now), satellite: 'X', norad: 1, serverTime: now, raw: 'VEdEAQ'.repeat(5), frameHash: cr.randomBytes(32).toString('hex') + String(i).slice(0, 0), mode: 'LoRa', freq: 436.5, sf: 10, cr: 5, bw: 125, bitrate: null, freqDev: null, rxBw: null, parsed: 'x'.repeat(500) + '{"header":{"magic":[84,71,68],"version":1,"frameCounter":1},"payload":{"batteryMv":3900,"temperatureDc":200,"txPowerMw":500}}', crcError: 0, isTest: 0, satLat: 1, satLng: 2, satAlt: 500, sunLit: 1, eclipseDepth: -3, footPrint: 2500, stationNumber: 1, txPowerMw: 500, historical: 0 }));
  const rc = pk.map((p, i) => ({ packetId: p.id, stationId: ids[(b * N + i) % 1000]!, userId: '1', serverTime: now, lat: 1, lng: 2, distance: 100, elevation: 30, azimuth: 100, usecTime: now * 1000, doppler: 100, fDoppler: null, frequencyOffset: 0, crcError: 0, rssi: -100, snr: -3, frequencyError: 100 }));
  const tx0 = performance.now();
  await d.db.transaction().execute(async (trx) => {
    await t('packets', () => insertPackets(trx, pk));
    await t('receptions', () => insertReceptions(trx, rc));
    await t('stations', () => addStationReceptionStats(trx, rc.map((r) => ({ id: r.stationId, telemetryPackets: 1, confirmedPackets: 1, crcErrors: 0, lastPacketTime: now, lastSeen: now, maxDistanceKm: 100 }))));
    await t('sat', () => addSatelliteStats(trx, [{ name: 'X', frames: N, confirmedPackets: N, lastPacketTime: now }]));
    await t('daily', () => addDailyStats(trx, rc.map((r) => ({ stationId: r.stationId, day: '2026-11-22', satellite: 'X', frames: 1 }))));
    await t('counters', () => addToCounters(trx, { packets: N, receptions: N }));
  });
  times.txTotal = (times.txTotal ?? 0) + performance.now() - tx0;
}
for (const [k, v] of Object.entries(times)) console.log(k, (v / (300 * N) * 1000).toFixed(1), 'us/row');
await d.close();
