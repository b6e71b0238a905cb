// Where the N simulated stations stand, what they are called and who owns them. Deterministic:
// the same N gives the same stations on every run, so a restart reconnects the same stations.
import type { Band } from '@tinygs/contracts';
import { CITIES } from './cities';

export interface StationSpec {
  index: number;
  name: string;
  location: [number, number];
  /** the band its antenna and radio are built for */
  band: Band;
  /** the firmware's client id: a 12-hex-digit MAC */
  mac: string;
  /** Wi-Fi signal the station reports, dBm */
  wifiRssiDbm: number;
  tx: boolean;
  /** e-mail address of the owner account */
  ownerEmail: string;
}

export interface LayoutOptions {
  stationsPerOwner: number;
  /** the first two stations belong to this account (the demo login), when given */
  demoOwnerEmail: string | null;
}

/** Small deterministic PRNG (mulberry32) so that layouts repeat exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Most amateur stations listen on 433 MHz; the other bands have fewer.
const BAND_WEIGHTS: readonly [Band, number][] = [
  [433, 0.7],
  [900, 0.12],
  [137, 0.1],
  [2400, 0.08],
];

function pickBand(r: number): Band {
  let acc = 0;
  for (const [band, weight] of BAND_WEIGHTS) {
    acc += weight;
    if (r < acc) return band;
  }
  return 433;
}

const JITTER_DEG = 0.35;
const DEMO_OWNED_STATIONS = 2;

export function planStations(count: number, options: LayoutOptions): StationSpec[] {
  const specs: StationSpec[] = [];
  for (let index = 0; index < count; index += 1) {
    const city = CITIES[index % CITIES.length] ?? CITIES[0];
    if (!city) break;
    const round = Math.floor(index / CITIES.length) + 1;
    const random = seededRandom(index + 1);
    const ownerEmail =
      options.demoOwnerEmail && index < DEMO_OWNED_STATIONS
        ? options.demoOwnerEmail
        : `sim-owner-${Math.floor(index / options.stationsPerOwner)}@simulator.tinygs.localhost`;
    specs.push({
      index,
      name: `${city.token}_${round}`,
      location: [
        Math.round((city.lat + (random() - 0.5) * 2 * JITTER_DEG) * 1000) / 1000,
        Math.round((city.lng + (random() - 0.5) * 2 * JITTER_DEG) * 1000) / 1000,
      ],
      band: pickBand(random()),
      mac: (0x24a16000_0000 + index * 7919).toString(16).toUpperCase().padStart(12, '0'),
      wifiRssiDbm: -45 - Math.round(random() * 40),
      tx: random() < 0.3,
      ownerEmail,
    });
  }
  return specs;
}
