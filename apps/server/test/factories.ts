// Small factories for integration tests: rows inserted directly, the way the real parts would
// leave them (users with an encrypted MQTT password, stations, satellite TLEs).
import { randomBytes } from 'node:crypto';
import { formatStationId } from '@tinygs/contracts';
import { makeTleLines } from '@tinygs/orbit';
import type { Kysely } from 'kysely';
import type { Database, NewPacket, NewStation } from '../src/db/schema';
import { encryptSecret } from '../src/lib/crypto';
import { newStationRow } from '../src/repositories/stations';

/** The SERVER_SECRET the harness configures. */
export const TEST_SERVER_SECRET = 'test-secret-test-secret-test-secret-0123456789';

let nextUserId = 7_000_000 + Math.floor(Math.random() * 1_000_000);

export interface BuiltUser {
  id: string;
  /** the MQTT password in clear */
  password: string;
}

export async function buildUser(
  db: Kysely<Database>,
  overrides: { id?: string; password?: string; email?: string | null; serverSecret?: string } = {},
): Promise<BuiltUser> {
  nextUserId += 1;
  const id = overrides.id ?? String(nextUserId);
  const password = overrides.password ?? randomBytes(12).toString('base64url');
  await db
    .insertInto('users')
    .values({
      id,
      email: overrides.email ?? null,
      emailVal: 0,
      acceptedTerms: 0,
      newsletterFrequency: 'none',
      mqttPasswordEnc: encryptSecret(password, overrides.serverSecret ?? TEST_SERVER_SECRET),
      telegramChatId: null,
      displayName: null,
      isAdmin: 0,
      createdAt: Date.now(),
    })
    .execute();
  return { id, password };
}

type StationOverrides = Partial<NewStation> & { userId: string; name: string };

export async function buildStation(
  db: Kysely<Database>,
  overrides: StationOverrides,
): Promise<string> {
  const row = stationRow(overrides);
  await db.insertInto('stations').values(row).execute();
  return row.id;
}

/** Many stations at once (a few hundred rows per statement). */
export async function buildStations(
  db: Kysely<Database>,
  stations: StationOverrides[],
): Promise<void> {
  for (let i = 0; i < stations.length; i += 500) {
    await db
      .insertInto('stations')
      .values(stations.slice(i, i + 500).map(stationRow))
      .execute();
  }
}

function stationRow(overrides: StationOverrides): NewStation {
  return newStationRow({
    id: formatStationId(overrides.name, overrides.userId),
    lat: 40.4,
    lng: -3.7,
    version: 2603242,
    creationDate: Date.now(),
    ...overrides,
  });
}

/** A plausible LEO TLE (97.5 degrees, ~15.2 rev/day) with its epoch now. */
export function leoTle(
  name: string,
  noradId: number,
  options: { raanDeg?: number; meanAnomalyDeg?: number } = {},
) {
  return makeTleLines({
    name,
    noradId,
    epoch: new Date(),
    inclinationDeg: 97.5,
    raanDeg: options.raanDeg ?? 40,
    eccentricity: 0.001,
    argPerigeeDeg: 90,
    meanAnomalyDeg: options.meanAnomalyDeg ?? 10,
    meanMotionRevPerDay: 15.2,
  });
}

export async function setSatelliteTle(
  db: Kysely<Database>,
  satellite: string,
  tle: readonly [string, string, string] | null,
): Promise<void> {
  await db
    .updateTable('satellites')
    .set({ tle: tle ? JSON.stringify(tle) : null })
    .where('name', '=', satellite)
    .execute();
}

/** A decoded packet's row as the ingest makes it (no reception counted on it yet). */
export function packetRow(id: string, overrides: Partial<NewPacket> = {}): NewPacket {
  return {
    id,
    satellite: 'Norbi',
    norad: 46494,
    serverTime: Date.now(),
    raw: Buffer.from(id).toString('base64'),
    frameHash: `hash-${id}`,
    mode: 'LoRa',
    freq: 436.703,
    parsed: '{"payload":{}}',
    crcError: 0,
    isTest: 0,
    stationNumber: 0,
    historical: 0,
    ...overrides,
  };
}
