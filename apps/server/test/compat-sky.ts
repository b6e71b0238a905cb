// Real traffic for the compatibility suite: firmware stations in real cities hear the satellites
// of the seeded catalogue that are above their horizon now, the way the simulator decides it
// (same orbit maths, same frames, same tele/rx messages), through the broker and the ingest.
import { CRC_ERROR_MARKER } from '@tinygs/contracts';
import { subSatellitePoint } from '@tinygs/orbit';
import type { MqttClient } from 'mqtt';
import { readCounters } from '../src/repositories/counters';
import { CITIES } from '../src/simulator/cities';
import { FrameMaker } from '../src/simulator/frames';
import { MIN_ELEVATION_DEG, simulateReception } from '../src/simulator/radio';
import { rxMessage } from '../src/simulator/simulator';
import { lookFrom, type SimSatellite } from '../src/simulator/sky';
import { simSatellitesFromCatalogue } from '../src/simulator/sources';
import { buildUser, type BuiltUser } from './factories';
import type { TestServer } from './harness';
import { connectStation, publishTele, waitFor } from './network-helpers';

export interface SkyStation {
  name: string;
  owner: BuiltUser;
  location: [number, number];
  satellite: SimSatellite;
  client: MqttClient;
}

export interface HeardSky {
  owners: BuiltUser[];
  stations: SkyStation[];
  /** frames published (receptions, CRC errors included) */
  receptions: number;
  stop(): Promise<void>;
}

const MAX_CITY_STATIONS = 10;
const ROUNDS = 4;

/** The best-placed satellite with an orbit above `location`'s horizon now, as a station tunes. */
function bestVisible(sats: readonly SimSatellite[], location: [number, number], now: number) {
  let best: { sat: SimSatellite; el: number } | null = null;
  for (const sat of sats) {
    const el = lookFrom(sat, location, now)?.elevationDeg ?? -90;
    if (el > MIN_ELEVATION_DEG && (!best || el > best.el)) best = { sat, el };
  }
  return best?.sat ?? null;
}

/**
 * Connects stations and lets them hear a few beacons of the satellite each listens to. Besides
 * the cities, two stations sit under each of the first `titled` satellites whose element-set
 * title differs from their catalogue name (NORBY / Norbi), so those are always among the heard.
 */
export async function hearTheSky(server: TestServer, titled: readonly string[]): Promise<HeardSky> {
  const network = server.ctx.services.network;
  if (!network) throw new Error('network part not running');
  const db = server.ctx.database.db;
  const sats = simSatellitesFromCatalogue(network.catalogue.all()).filter((s) => s.tle);
  const now = Date.now();
  const owners = [await buildUser(db), await buildUser(db)];
  const plans: Omit<SkyStation, 'client' | 'owner'>[] = [];
  for (const city of CITIES) {
    if (plans.length >= MAX_CITY_STATIONS) break;
    const location: [number, number] = [city.lat, city.lng];
    const sat = bestVisible(sats, location, now);
    if (sat) plans.push({ name: `${city.token}_GS`, location, satellite: sat });
  }
  for (const name of titled) {
    const sat = sats.find((s) => s.name === name);
    const point = sat?.tle ? subSatellitePoint(sat.tle, now) : null;
    if (!sat || !point) continue;
    for (const [i, dLat] of [1.5, -2.5].entries()) {
      const lat = Math.max(-89, Math.min(89, point.lat + dLat));
      const location: [number, number] = [
        Math.round(lat * 1e4) / 1e4,
        Math.round(point.lng * 1e4) / 1e4,
      ];
      plans.push({
        name: `${sat.name.replace(/[^A-Za-z0-9]/g, '')}_Chaser${i + 1}`,
        location,
        satellite: sat,
      });
    }
  }
  const stations: SkyStation[] = [];
  for (const [i, plan] of plans.entries()) {
    const owner = owners[i % owners.length] as BuiltUser;
    const client = await connectStation(server, owner, plan.name, {
      station_location: plan.location,
      sat: plan.satellite.name,
      modem_conf: JSON.stringify(plan.satellite.config),
    });
    stations.push({ ...plan, owner, client });
  }
  await waitFor(async () => (await readCounters(db)).stations === stations.length, 10_000);

  // Each satellite beacons once a round; every station listening to it and seeing it hears the
  // same bytes (receptions merge into one packet, later ones stored after the first).
  const frames = new FrameMaker();
  let receptions = 0;
  // A satellite with fewer captured frames than rounds (Polytech_Universe-1 has three) repeats one:
  // the server rightly takes a station's second copy of a frame as the same reception, so a
  // station publishes each frame once and `receptions` stays what is stored, whatever the sky.
  const sent = new Set<string>();
  for (let round = 0; round < ROUNDS; round += 1) {
    const at = Date.now();
    const made = new Map<string, Uint8Array>();
    for (const st of stations) {
      const look = lookFrom(st.satellite, st.location, at);
      if (!look || look.elevationDeg <= 0) continue;
      // One CRC error in the last round, as real stations report them: no decoded payload.
      const crc = round === ROUNDS - 1 && st === stations[0];
      let bytes = made.get(st.satellite.name);
      if (!bytes) {
        bytes = frames.next(st.satellite, at);
        made.set(st.satellite.name, bytes);
      }
      const copy = `${st.name} ${Buffer.from(bytes).toString('base64')}`;
      if (!crc && sent.has(copy)) continue;
      sent.add(copy);
      const rx = simulateReception(look, st.satellite.config, false);
      const message = rxMessage(
        st.location,
        st.satellite.config,
        st.satellite,
        crc ? Buffer.from(CRC_ERROR_MARKER, 'latin1') : bytes,
        crc,
        rx,
        look.rangeRateKmPerS,
        Date.now(),
      );
      await publishTele(st.client, st.owner, st.name, 'rx', message);
      receptions += 1;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  await waitFor(
    async () =>
      Number(
        (
          await db
            .selectFrom('receptions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ) === receptions,
    10_000,
  );
  return {
    owners,
    stations,
    receptions,
    async stop() {
      await Promise.all(stations.map((s) => s.client.endAsync()));
    },
  };
}
