// What the community's scripts do with the public API, done here in our own code against a server
// whose packets came from firmware stations through the broker: an antenna mapper (stations, a
// station's packets page by page, the element-set file keyed by each packet's satellite, look
// angles at the packet's serverTime), a TLE consumer and a dashboard. Shapes and units as
// PROTOCOL.md ("What the public API returns") and SPEC.md section 7 give them.
import {
  degreesLat,
  degreesLong,
  degreesToRadians,
  ecfToLookAngles,
  eciToEcf,
  eciToGeodetic,
  gstime,
  propagate,
  twoline2satrec,
} from 'satellite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { hearTheSky, type HeardSky } from './compat-sky';
import { DIALECTS, startTestServer, type TestServer } from './harness';

interface ElementSet {
  name: string;
  line1: string;
  line2: string;
}

/** The scripts' reading: strip each line, every three lines make a set. */
function readElementSets(text: string): ElementSet[] {
  const lines = text.split('\n').map((l) => l.trim());
  if (lines.at(-1) === '') lines.pop();
  const sets: ElementSet[] = [];
  for (let i = 0; i + 2 < lines.length; i += 3)
    sets.push({ name: lines[i] ?? '', line1: lines[i + 1] ?? '', line2: lines[i + 2] ?? '' });
  return sets;
}

/** The TLE checksum: digits summed, a minus counts one, modulo 10. */
function checksumOk(line: string): boolean {
  let sum = 0;
  for (const c of line.slice(0, 68)) sum += c === '-' ? 1 : /\d/.test(c) ? Number(c) : 0;
  return sum % 10 === Number(line[68]);
}

interface WirePacket {
  id: string;
  serverTime: number;
  satellite: string;
  norad: number;
  satPos: { lat: number; lng: number; alt: number };
  parsed?: unknown;
}

interface WireStation {
  name: string;
  userId: string;
  location: [number, number];
}

/** Great-circle distance, km. */
function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * r) / 2) ** 2 +
    Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lng - a.lng) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Where the set puts the satellite at `ms`, and how it looks from `station`. */
function observe(set: ElementSet, ms: number, station: [number, number]) {
  const satrec = twoline2satrec(set.line1, set.line2);
  const date = new Date(ms);
  const pv = propagate(satrec, date);
  if (!pv) return null;
  const gmst = gstime(date);
  const look = ecfToLookAngles(
    {
      latitude: degreesToRadians(station[0]),
      longitude: degreesToRadians(station[1]),
      height: 0,
    },
    eciToEcf(pv.position, gmst),
  );
  const geo = eciToGeodetic(pv.position, gmst);
  return {
    elevationDeg: (look.elevation * 180) / Math.PI,
    point: { lat: degreesLat(geo.latitude), lng: degreesLong(geo.longitude), alt: geo.height },
  };
}

const PAGE = 3;

describe.each(DIALECTS)('community tools against %s', (dialect) => {
  let server: TestServer;
  let sky: HeardSky;
  /** satellites whose element-set title is not their catalogue name (NORBY for Norbi) */
  let titled: string[];
  const startedAt = Date.now();

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
      listen: true,
    });
    const rows = await server.ctx.database.db
      .selectFrom('satellites')
      .select(['name', 'tle', 'status'])
      .where('status', 'in', ['Supported', 'SupportedSL', 'Surveillance', 'Experimental'])
      .orderBy('name')
      .execute();
    // Titles that differ beyond letter case (NORBY / Norbi) break a case-insensitive match too.
    titled = rows
      .filter((r) => {
        const title = r.tle ? (JSON.parse(r.tle) as string[])[0]?.trim() : undefined;
        return title !== undefined && title.toLowerCase() !== r.name.toLowerCase();
      })
      .map((r) => r.name)
      .sort((a, b) => Number(b === 'Norbi') - Number(a === 'Norbi'))
      .slice(0, 2);
    sky = await hearTheSky(server, titled);
  }, 60_000);
  afterAll(async () => {
    await sky?.stop();
    await server?.stop();
  });

  const api = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status, path).toBe(200);
    return res;
  };
  const json = async <T>(path: string) => (await (await api(path)).json()) as T;

  /** Every packet of a station, newest first, the way a tool pages: before = last serverTime. */
  async function stationHistory(station: WireStation): Promise<WirePacket[]> {
    const id = encodeURIComponent(`${station.name}@${station.userId}`);
    const all: WirePacket[] = [];
    let before: number | null = null;
    for (let pages = 0; pages < 100; pages += 1) {
      const page: { packets: WirePacket[] } = await json<{
        packets: WirePacket[];
        templates: Record<string, string>;
      }>(`/v2/packets?station=${id}&limit=${PAGE}${before === null ? '' : `&before=${before}`}`);
      expect(page.packets.length).toBeLessThanOrEqual(PAGE);
      if (page.packets.length === 0) return all;
      all.push(...page.packets);
      before = page.packets.at(-1)?.serverTime ?? null;
    }
    throw new Error('paging did not end');
  }

  it('antenna mapper: every packet’s satellite resolves in tinygs_supported.txt and sits above the station’s horizon', async () => {
    const res = await api('/v1/tinygs_supported.txt');
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).not.toContain('\r');
    const sets = new Map(readElementSets(text).map((s) => [s.name, s]));

    let mapped = 0;
    let above = 0;
    const heard = new Set<string>();
    for (const owner of sky.owners) {
      const stations = await json<WireStation[]>(`/v1/stations?userId=${owner.id}`);
      const mine = sky.stations.filter((s) => s.owner === owner);
      expect(stations.map((s) => s.name).sort()).toEqual(mine.map((s) => s.name).sort());
      for (const station of stations) {
        const planned = mine.find((s) => s.name === station.name);
        expect(station.location).toEqual(planned?.location);
        const packets = await stationHistory(station);
        // Paging reached the station's whole history, each packet once, newest first.
        const stored = await server.ctx.database.db
          .selectFrom('receptions')
          .select('packetId')
          .where('stationId', '=', `${station.name}@${station.userId}`)
          .execute();
        expect(packets.map((p) => p.id).sort()).toEqual(stored.map((r) => r.packetId).sort());
        for (let i = 1; i < packets.length; i += 1)
          expect(packets[i - 1]?.serverTime).toBeGreaterThanOrEqual(packets[i]?.serverTime ?? 0);

        for (const p of packets) {
          expect(typeof p.norad).toBe('number');
          expect(p.serverTime).toBeGreaterThanOrEqual(startedAt);
          expect(p.serverTime).toBeLessThanOrEqual(Date.now());
          const set = sets.get(p.satellite);
          expect(set, `element set of ${p.satellite}`).toBeDefined();
          if (!set) continue;
          expect(Number(set.line1.slice(2, 7))).toBe(p.norad);
          const seen = observe(set, p.serverTime, station.location);
          expect(seen).not.toBeNull();
          if (!seen) continue;
          // satPos is the sub-satellite point in degrees and km, as the tool's own maths has it.
          expect(distanceKm(seen.point, p.satPos)).toBeLessThan(20);
          expect(Math.abs(seen.point.alt - p.satPos.alt)).toBeLessThan(20);
          mapped += 1;
          heard.add(p.satellite);
          if (seen.elevationDeg > 0) above += 1;
        }
      }
    }
    expect(mapped).toBeGreaterThanOrEqual(sky.stations.length);
    expect(above / mapped).toBeGreaterThanOrEqual(0.95);
    for (const name of titled) expect(heard).toContain(name);
  });

  it('antenna mapper: tells CRC errors by the missing parsed key, decoded packets by its presence', async () => {
    const first = sky.stations[0];
    if (!first) throw new Error('no station heard anything');
    const packets = await stationHistory({
      name: first.name,
      userId: first.owner.id,
      location: first.location,
    });
    expect(packets.some((p) => !('parsed' in p))).toBe(true);
    expect(packets.some((p) => 'parsed' in p && p.parsed !== null)).toBe(true);
  });

  it('TLE consumer: /v1/tles.txt has a valid set named as the packets name their satellite', async () => {
    const res = await api('/v1/tles.txt');
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.headers.get('etag')).toBeTruthy();
    const text = await res.text();
    expect(text).not.toContain('\r');
    expect(text.endsWith('\n')).toBe(true);
    const sets = readElementSets(text);
    expect(sets.length * 3).toBe(text.split('\n').length - 1);
    for (const s of sets) {
      expect(s.line1.startsWith('1 ') && s.line2.startsWith('2 '), s.name).toBe(true);
      expect(checksumOk(s.line1) && checksumOk(s.line2), s.name).toBe(true);
      expect(s.line1.slice(2, 7)).toBe(s.line2.slice(2, 7));
    }
    const byName = new Map(sets.map((s) => [s.name, s]));
    expect(byName.size).toBe(sets.length);

    // Every satellite with packets, by the name and NORAD its packets carry, in both files.
    const supported = new Map(
      readElementSets(await (await api('/v1/tinygs_supported.txt')).text()).map((s) => [s.name, s]),
    );
    const latest = await json<{ packets: WirePacket[] }>('/v2/packets');
    expect(latest.packets.length).toBeGreaterThan(0);
    for (const p of latest.packets) {
      expect(Number(byName.get(p.satellite)?.line1.slice(2, 7)), p.satellite).toBe(p.norad);
      expect(supported.get(p.satellite), p.satellite).toEqual(byName.get(p.satellite));
    }
    // The element set's own title is still served with the satellite.
    for (const name of titled) {
      const detail = await json<{ tle: [string, string, string] }>(
        `/v1/satellite/${encodeURIComponent(name)}`,
      );
      expect(detail.tle[0].trim()).not.toBe(name);
      expect(detail.tle.slice(1)).toEqual([byName.get(name)?.line1, byName.get(name)?.line2]);
    }
  });

  it('dashboard: /v1/statistics and /v1/satellites count what the stations heard, in degrees and milliseconds', async () => {
    const stats = await json<Record<string, unknown>>('/v1/statistics');
    expect(Object.keys(stats).sort()).toEqual(['members', 'packets', 'stations']);
    expect(stats.stations).toBe(sky.stations.length);
    const decoded = await server.ctx.database.db
      .selectFrom('packets')
      .select('id')
      .where('crcError', '=', 0)
      .execute();
    expect(stats.packets).toBe(decoded.length);
    expect(Number.isInteger(stats.members)).toBe(true);

    const satellites = await json<
      {
        name: string;
        status: string;
        frames: number;
        lastPacketTime: number | null;
        lat: number | null;
        lng: number | null;
      }[]
    >('/v1/satellites');
    const sets = new Map(
      readElementSets(await (await api('/v1/tles.txt')).text()).map((s) => [s.name, s]),
    );
    const heard = new Set(sky.stations.map((s) => s.satellite.name));
    for (const name of heard) {
      const sat = satellites.find((s) => s.name === name);
      expect(sat, name).toBeDefined();
      if (!sat) continue;
      expect(sat.frames).toBeGreaterThan(0);
      expect(sat.lastPacketTime).toBeGreaterThanOrEqual(startedAt);
      expect(sat.lastPacketTime).toBeLessThanOrEqual(Date.now());
      const set = sets.get(name);
      const now = set ? observe(set, Date.now(), [0, 0]) : null;
      expect(now).not.toBeNull();
      if (!now || sat.lat === null || sat.lng === null) throw new Error(`${name}: no position`);
      expect(distanceKm(now.point, { lat: sat.lat, lng: sat.lng })).toBeLessThan(100);
    }
  });
});
