// What the ingest and soak benchmarks load into a fresh server: one LoRa satellite of our own with
// an orbit (so every frame is decoded and placed on it) and owners with ten stations each, spread
// over the globe, whose MQTT passwords are encrypted with the server's secret.
import { makeTleLines } from '@tinygs/orbit';
import type { Kysely } from 'kysely';
import { encryptSecret, insertUser, type Database } from '@tinygs/server/testing';
import type { LoadStation } from './ingest-protocol';

export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
export const BENCH_SATELLITE = { name: 'Bench-Sat', norad: 99_990, freq: 436.5 };

export async function seedBenchNetwork(
  db: Kysely<Database>,
  stationCount: number,
  stationPrefix: string,
): Promise<LoadStation[]> {
  const now = new Date();
  await db
    .insertInto('satellites')
    .values({
      name: BENCH_SATELLITE.name,
      displayName: 'Bench Sat',
      norad: BENCH_SATELLITE.norad,
      status: 'Supported',
      description: '',
      longDescription: '',
      launchDate: null,
      configurations: JSON.stringify([
        {
          mode: 'LoRa',
          freq: BENCH_SATELLITE.freq,
          sf: 10,
          cr: 5,
          bw: 125,
          sat: BENCH_SATELLITE.name,
          NORAD: BENCH_SATELLITE.norad,
        },
      ]),
      tle: JSON.stringify(
        makeTleLines({
          name: 'BENCH',
          noradId: BENCH_SATELLITE.norad,
          epoch: now,
          inclinationDeg: 97.5,
          raanDeg: 10,
          eccentricity: 0.001,
          argPerigeeDeg: 0,
          meanAnomalyDeg: 0,
          meanMotionRevPerDay: 15.2,
        }),
      ),
      images: '[]',
      webTemplate: '',
      decoder: 'tinygs_demo',
      frames: 0,
      confirmedPackets: 0,
      lastPacketTime: null,
      updatedAt: now.getTime(),
    })
    .execute();

  const stations: LoadStation[] = [];
  for (let u = 0; stations.length < stationCount; u += 1) {
    const id = String(800_000_000_000 + u);
    const pass = `bench-pass-${u}`;
    await insertUser(db, {
      id,
      email: null,
      mqttPasswordEnc: encryptSecret(pass, BENCH_SECRET),
      createdAt: Date.now(),
    });
    for (let k = 0; k < 10 && stations.length < stationCount; k += 1) {
      stations.push({
        user: id,
        pass,
        name: `${stationPrefix}_${u}_${k}`,
        location: [-60 + Math.random() * 120, -180 + Math.random() * 360],
      });
    }
  }
  return stations;
}
