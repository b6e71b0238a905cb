// Writes the `tle` field of every seed satellite file: plausible element sets with epochs a few days
// before REFERENCE_DATE, so SGP4 positions are sane when the demo runs around that date.
// Deterministic: each satellite's elements come from a generator seeded with its name.
// Run: npx tsx apps/server/seed/scripts/generate-tles.ts
import { makeTleLines } from '@tinygs/orbit';
import {
  hashText,
  readCatalogue,
  seededRandom,
  writeCatalogueEntry,
  type CatalogueEntry,
} from './catalogue-files';

const REFERENCE_DATE = Date.UTC(2026, 10, 22);
const MS_PER_DAY = 86_400_000;
const EARTH_MU_KM3_PER_S2 = 398_600.4418;
const EARTH_RADIUS_KM = 6378.137;
/** Semi-major axis of a circular orbit whose nodal precession follows the Sun (J2, circular). */
const SUN_SYNCHRONOUS_REFERENCE_KM = 12_352;

// Not launched yet, or balloons: no orbit to describe.
const WITHOUT_TLE = new Set(['Future', 'BFuture', 'Balloon', 'BInactive']);

interface OrbitShape {
  altitudeKm: number;
  inclinationDeg: number;
}

// The real satellites fly sun-synchronous orbits; heights are typical for their launches, lowered a
// little for the years of decay since.
const REAL_ORBITS: Record<string, number> = {
  Norbi: 548,
  'SATLLA-2B': 470,
  'FossaSat-2E1': 528,
  'FossaSat-2E8': 531,
  'FossaSat-2E11': 532,
  'FossaSat-2E12': 529,
  FEES: 505,
  'Polytech_Universe-1': 495,
};

function sunSynchronousInclinationDeg(altitudeKm: number): number {
  const ratio = (EARTH_RADIUS_KM + altitudeKm) / SUN_SYNCHRONOUS_REFERENCE_KM;
  return (Math.acos(-(ratio ** 3.5)) * 180) / Math.PI;
}

function between(random: () => number, low: number, high: number): number {
  return low + (high - low) * random();
}

/** Families of orbits small satellites actually get: rideshares to SSO, ISS deployments, others. */
function demoOrbit(random: () => number): OrbitShape {
  const pick = random();
  if (pick < 0.55) {
    // Kept at or below 640 km so the SSO inclination stays under 98 degrees.
    const altitudeKm = between(random, 470, 640);
    return { altitudeKm, inclinationDeg: sunSynchronousInclinationDeg(altitudeKm) };
  }
  if (pick < 0.75) return { altitudeKm: between(random, 395, 430), inclinationDeg: 51.64 };
  if (pick < 0.9) {
    return { altitudeKm: between(random, 500, 570), inclinationDeg: random() < 0.5 ? 53.05 : 45.0 };
  }
  return { altitudeKm: between(random, 650, 780), inclinationDeg: between(random, 85, 89.9) };
}

function meanMotionRevPerDay(altitudeKm: number): number {
  const semiMajorAxisKm = EARTH_RADIUS_KM + altitudeKm;
  const radPerS = Math.sqrt(EARTH_MU_KM3_PER_S2 / semiMajorAxisKm ** 3);
  return (radPerS * 86_400) / (2 * Math.PI);
}

/** Invented international designator for demo satellites: launch year, launch number, piece. */
function demoDesignator(entry: CatalogueEntry, random: () => number): string {
  const year = entry.launchDate ? Number(entry.launchDate.slice(2, 4)) : 26;
  const launch = 1 + Math.floor(random() * 240);
  const piece = 'ABCDEFGHJKLMNPQRSTUVWXYZ'[Math.floor(random() * 24)] ?? 'A';
  return `${String(year).padStart(2, '0')}${String(launch).padStart(3, '0')}${piece}`;
}

function tleFor(entry: CatalogueEntry): [string, string, string] | null {
  if (WITHOUT_TLE.has(entry.status) || entry.norad === null) return null;
  const random = seededRandom(hashText(entry.name));
  const realAltitudeKm = REAL_ORBITS[entry.name];
  const orbit =
    realAltitudeKm === undefined
      ? demoOrbit(random)
      : {
          altitudeKm: realAltitudeKm,
          inclinationDeg: sunSynchronousInclinationDeg(realAltitudeKm),
        };
  const epoch = new Date(REFERENCE_DATE - between(random, 0.5, 9.5) * MS_PER_DAY);
  const revPerDay = meanMotionRevPerDay(orbit.altitudeKm);
  // Lower orbits feel more drag: B* and the mean-motion derivative grow as altitude falls.
  const dragScale = Math.exp((500 - orbit.altitudeKm) / 120);
  const launchMs = entry.launchDate ? Date.parse(entry.launchDate) : null;
  const revolutions =
    launchMs === null ? 0 : Math.floor(((epoch.getTime() - launchMs) / MS_PER_DAY) * revPerDay);
  return makeTleLines({
    name: entry.displayName.toUpperCase(),
    noradId: entry.norad,
    epoch,
    inclinationDeg: orbit.inclinationDeg,
    raanDeg: between(random, 0, 360),
    eccentricity: between(random, 0.0001, 0.0018),
    argPerigeeDeg: between(random, 0, 360),
    meanAnomalyDeg: between(random, 0, 360),
    meanMotionRevPerDay: revPerDay,
    bstar: between(random, 1.5e-4, 4.5e-4) * dragScale,
    meanMotionDotOver2RevPerDay2: between(random, 0.6e-5, 2.5e-5) * dragScale,
    // Real satellites keep a blank designator: a made-up one would pose as a fact.
    intlDesignator: realAltitudeKm === undefined ? demoDesignator(entry, random) : '',
    elementSetNumber: 100 + Math.floor(random() * 899),
    revolutionNumberAtEpoch: Math.max(0, revolutions) % 100_000,
  });
}

let written = 0;
for (const file of readCatalogue()) {
  file.entry.tle = tleFor(file.entry);
  await writeCatalogueEntry(file);
  written++;
}
console.log(`wrote the tle field of ${written} satellite files`);
