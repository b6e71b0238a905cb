// The public read API as a visitor, a community tool and an owner meet it, on both databases.
import {
  NetworkStatisticsSchema,
  PacketDetailResponseSchema,
  PacketsInaResponseSchema,
  PacketsV2ResponseSchema,
  SatelliteDetailResponseSchema,
  SatellitesResponseSchema,
  SearchResponseSchema,
  StationPacketsResponseSchema,
  StationResponseSchema,
  StationsResponseSchema,
  StationStatisticsResponseSchema,
  WorldmapResponseSchema,
} from '@tinygs/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { hexId, insertPackets } from './public-fixtures';

const OWNER_ONLY = [
  'local_ip',
  'wifiRssi',
  'radioStatus',
  'autoUpdate',
  'beta',
  'tx',
  'modem_conf',
  'satnogsOptOut',
];

describe.each(DIALECTS)('public read API on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let other: LoggedIn;
  let stationId: string;
  const now = Date.now();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const db = server.ctx.database.db;
    owner = await loggedInUser(server);
    other = await loggedInUser(server);
    stationId = await buildStation(db, {
      name: 'Madrid_Roof',
      userId: owner.id,
      status: 1,
      localIp: '192.168.1.50',
      wifiRssi: -63,
      radioStatus: 0,
      tx: 1,
      modemConf: '{"mode":"LoRa","freq":436.703}',
    });
    // 120 Norbi packets heard by the station, the newest a CRC error; one Norby packet 2 days ago.
    await insertPackets(db, [
      ...Array.from({ length: 119 }, (_, i) => ({
        id: hexId(i + 1),
        satellite: 'Norbi',
        serverTime: now - (200 - i) * 1000,
        stations: [{ id: stationId, userId: owner.id }],
      })),
      {
        id: hexId(500),
        satellite: 'Norbi',
        serverTime: now - 1000,
        crcError: true,
        stations: [{ id: stationId, userId: owner.id }],
      },
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });

  it('serves statistics and the catalogue in their contract shapes', async () => {
    expect(NetworkStatisticsSchema.safeParse((await get('/v1/statistics')).json()).success).toBe(
      true,
    );
    const all = SatellitesResponseSchema.parse((await get('/v1/satellites')).json());
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(all.some((s) => s.status === 'Inactive')).toBe(false);
    const balloons = SatellitesResponseSchema.parse(
      (await get('/v1/satellites/?status=Balloon')).json(),
    );
    expect(balloons.length).toBeGreaterThan(0);
    expect(balloons.every((s) => s.status === 'Balloon')).toBe(true);
    const inactive = SatellitesResponseSchema.parse((await get('/v1/satellitesIna')).json());
    expect(inactive.every((s) => s.status === 'Inactive')).toBe(true);
    const norby = SatelliteDetailResponseSchema.parse((await get('/v1/satellite/Norbi')).json());
    expect(norby.displayName).toBe('Norby');
    expect(norby.tle).toHaveLength(3);
    expect(norby.webTemplate).toBeTruthy();
    expect(
      WorldmapResponseSchema.parse((await get('/v1/satellitesWorldmap')).json()).length,
    ).toBeGreaterThan(0);
  });

  it('lists the retired balloons on their own: ?status=BInactive, not /v1/satellites', async () => {
    const active = SatellitesResponseSchema.parse((await get('/v1/satellites')).json());
    expect(active.some((s) => s.status === 'BInactive')).toBe(false);
    const retired = SatellitesResponseSchema.parse(
      (await get('/v1/satellites?status=BInactive')).json(),
    );
    expect(retired.map((s) => s.name).sort()).toEqual(['Thistledown-4', 'Zephyrine-2']);
  });

  it('answers catalogue requests with an ETag and 304 when unchanged', async () => {
    const first = await get('/v1/tles.txt');
    expect(first.headers['content-type']).toContain('text/plain');
    expect(first.body.trim().split('\n').length % 3).toBe(0);
    const etag = String(first.headers.etag);
    expect((await get('/v1/tles.txt', { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('lists the latest 50 packets with templates, CRC errors without a parsed key', async () => {
    const body = PacketsV2ResponseSchema.parse((await get('/v2/packets?satellite=Norbi')).json());
    expect(body.packets).toHaveLength(50);
    expect(body.packets[0]?.id).toBe(hexId(500));
    expect('parsed' in (body.packets[0] as object)).toBe(false);
    expect(body.packets[1]?.parsed).toEqual({ payload: { tinygsTxPower: 100 } });
    expect(body.templates.Norbi).toBeTruthy();
    const byStation = PacketsV2ResponseSchema.parse(
      (await get(`/v2/packets?station=${stationId}`)).json(),
    );
    expect(byStation.packets).toHaveLength(50);
  });

  it('gives the latest and the first 100 packets of a satellite with more than 100', async () => {
    const body = PacketsInaResponseSchema.parse(
      (await get('/v2/packetsIna?satellite=Norbi')).json(),
    );
    expect(body.latest).toHaveLength(100);
    expect(body.first).toHaveLength(100);
    expect(body.first?.[0]?.id).toBe(hexId(1));
  });

  it('shows one packet with every station that heard it', async () => {
    const body = PacketDetailResponseSchema.parse((await get(`/v1/packet/${hexId(7)}`)).json());
    expect(body.stations).toHaveLength(1);
    expect(body.stations[0]).toMatchObject({
      name: 'Madrid_Roof',
      userId: owner.id,
      distance: 1200,
      crc_error: false,
    });
    expect(body.footPrint).toBe(2500);
    expect((await get('/v1/packet/does-not-exist')).statusCode).toBe(404);
  });

  it('keeps owner-only station fields from visitors and other users', async () => {
    const anonymous = StationResponseSchema.parse((await get(`/v1/station/${stationId}`)).json());
    const stranger = StationResponseSchema.parse(
      (await get(`/v1/station/${stationId}`, other.headers)).json(),
    );
    // The owner's user id in the header with another user's session is no owner either.
    const forged = StationResponseSchema.parse(
      (
        await get(`/v1/station/${stationId}`, {
          userid: owner.id,
          sessiontoken: other.sessionToken,
        })
      ).json(),
    );
    for (const view of [anonymous, stranger, forged])
      for (const key of OWNER_ONLY) expect(view).not.toHaveProperty(key);
    const mine = StationResponseSchema.parse(
      (await get(`/v1/station/${stationId}`, owner.headers)).json(),
    );
    expect(mine).toMatchObject({
      local_ip: '192.168.1.50',
      wifiRssi: -63,
      radioStatus: 0,
      tx: true,
    });
    expect((await get('/v1/station/Nobody@123')).statusCode).toBe(404);
    expect((await get('/v1/station/bad%20id')).statusCode).toBe(400);
  });

  it('lists stations, optionally of one user, and 30 days of station statistics', async () => {
    const all = StationsResponseSchema.parse((await get('/v1/stations')).json());
    expect(all.map((s) => s.name)).toContain('Madrid_Roof');
    const mine = StationsResponseSchema.parse(
      (await get(`/v1/stations?userId=${owner.id}`)).json(),
    );
    expect(mine).toHaveLength(1);
    expect(
      StationsResponseSchema.parse((await get(`/v1/stations?userId=${other.id}`)).json()),
    ).toEqual([]);
    const stats = StationStatisticsResponseSchema.parse(
      (await get(`/v1/station/${stationId}/statistics`)).json(),
    );
    expect(stats.reduce((n, d) => n + d.frames.length, 0)).toBe(120);
    // Kept for a minute: a frame heard now shows after that, not on every request's recount.
    await insertPackets(server.ctx.database.db, [
      {
        id: hexId(900_001),
        satellite: 'Norbi',
        serverTime: Date.now(),
        stations: [{ id: stationId, userId: owner.id }],
      },
    ]);
    const frames = async () =>
      StationStatisticsResponseSchema.parse(
        (await get(`/v1/station/${stationId}/statistics`)).json(),
      ).reduce((n, d) => n + d.frames.length, 0);
    expect(await frames()).toBe(120);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(await frames()).toBe(121);
    } finally {
      vi.useRealTimers();
    }
  });

  it('pages a station’s packets for its owner only', async () => {
    const first = StationPacketsResponseSchema.parse(
      (await get(`/v1/packets?station=${stationId}`)).json(),
    );
    expect(first).toHaveLength(50);
    const before = first[first.length - 1]?.serverTime as number;
    const anonymous = await get(`/v1/packets?station=${stationId}&before=${before}`);
    expect(anonymous.statusCode).toBe(401);
    const next = StationPacketsResponseSchema.parse(
      (await get(`/v1/packets?station=${stationId}&before=${before}`, owner.headers)).json(),
    );
    expect(next).toHaveLength(50);
    expect(next.every((p) => p.serverTime < before)).toBe(true);
    expect((await get(`/v1/packets?station=${stationId}&before=yesterday`)).statusCode).toBe(400);
  });

  it('pages /v2/packets?station= back through the whole history with before and limit', async () => {
    const page = async (query: string) =>
      PacketsV2ResponseSchema.parse((await get(`/v2/packets?station=${stationId}${query}`)).json())
        .packets;
    // The 120 fixture packets, and any an earlier test added since.
    const all = (await page('&limit=500')).map((p) => p.id);
    expect(all.length).toBeGreaterThanOrEqual(120);
    const seen: string[] = [];
    let before = '';
    for (let i = 0; i < 10; i += 1) {
      const packets = await page(`&limit=50${before}`);
      if (packets.length === 0) break;
      seen.push(...packets.map((p) => p.id));
      before = `&before=${packets.at(-1)?.serverTime}`;
    }
    expect(seen).toEqual(all);
    for (const bad of ['limit=501', 'limit=0', 'limit=2.5', 'limit=many', 'before=-1'])
      expect((await get(`/v2/packets?station=${stationId}&${bad}`)).statusCode, bad).toBe(400);
    // Paging needs a station; the latest-packets documents keep their live shape.
    expect((await get('/v2/packets?satellite=Norbi&limit=10')).statusCode).toBe(400);
    expect((await get('/v2/packets?before=1')).statusCode).toBe(400);
  });

  it('pages a station whose receptions of merged packets came after later packets, without a gap', async () => {
    const db = server.ctx.database.db;
    const late = await buildStation(db, { name: 'Late_Joiner', userId: other.id });
    const t0 = now - 3_600_000;
    const heard = (id: number, at: number, lateMs = 0) => ({
      id: hexId(id),
      satellite: 'Norbi',
      serverTime: at,
      stations: [{ id: late, userId: other.id, lateMs }],
    });
    // Packet 801 was first heard by another station; this one's copy arrived 30 s later, after
    // it had already heard 802 and 803 on its own.
    await insertPackets(db, [
      heard(800, t0 - 5_000),
      heard(801, t0, 30_000),
      heard(802, t0 + 10_000),
      heard(803, t0 + 20_000),
    ]);
    const newestFirst = [803, 802, 801, 800].map(hexId);
    for (const limit of [1, 2, 3]) {
      const ids: string[] = [];
      let before = '';
      for (let i = 0; i < 10; i += 1) {
        const packets = PacketsV2ResponseSchema.parse(
          (await get(`/v2/packets?station=${late}&limit=${limit}${before}`)).json(),
        ).packets;
        if (packets.length === 0) break;
        ids.push(...packets.map((p) => p.id));
        before = `&before=${packets.at(-1)?.serverTime}`;
      }
      expect(ids, `limit ${limit}`).toEqual(newestFirst);
    }
    // 40 late copies arrive after the station's own newest packet: its page reads on past them.
    const busy = await buildStation(db, { name: 'Busy_Merger', userId: other.id });
    const t1 = now - 1_800_000;
    await insertPackets(db, [
      ...Array.from({ length: 40 }, (_, i) => ({
        id: hexId(1000 + i),
        satellite: 'Norbi',
        serverTime: t1 - 40_000 + i * 100,
        stations: [{ id: busy, userId: other.id, lateMs: 45_000 }],
      })),
      {
        id: hexId(1100),
        satellite: 'Norbi',
        serverTime: t1,
        stations: [{ id: busy, userId: other.id }],
      },
    ]);
    const newest = PacketsV2ResponseSchema.parse(
      (await get(`/v2/packets?station=${busy}&limit=2`)).json(),
    ).packets;
    expect(newest.map((p) => p.id)).toEqual([hexId(1100), hexId(1039)]);
    // The web app's own pages join up the same way.
    const first = StationPacketsResponseSchema.parse(
      (await get(`/v1/packets?station=${late}`)).json(),
    );
    expect(first.map((p) => p.id)).toEqual(newestFirst);
  });

  it('searches satellites by name and NORAD id, and stations by name', async () => {
    const byName = SearchResponseSchema.parse((await get('/v1/search?q=fossa')).json());
    expect(byName.satellites.map((s) => s.name)).toContain('FossaSat-2E11');
    const byNorad = SearchResponseSchema.parse((await get('/v1/search?q=46494')).json());
    expect(byNorad.satellites.map((s) => s.name)).toEqual(['Norbi']);
    const stations = SearchResponseSchema.parse((await get('/v1/search?q=madrid_')).json());
    expect(stations.stations.map((s) => s.id)).toEqual([stationId]);
    expect((await get('/v1/search?q=')).statusCode).toBe(400);
  });

  it('rejects malformed input with 400 and names unknown things with 404', async () => {
    expect((await get('/v1/satellites?status=Bogus')).statusCode).toBe(400);
    expect((await get('/v1/satellite/Nope')).statusCode).toBe(404);
    expect((await get('/v2/packets?satellite=Nope')).statusCode).toBe(404);
    expect((await get('/v2/packetsIna')).statusCode).toBe(400);
  });

  it('lists the stations of a packet oldest reception first, every field as stored', async () => {
    const db = server.ctx.database.db;
    const id = hexId(900);
    const heard = now - 10 * 86_400_000;
    await insertPackets(db, [{ id, satellite: 'Norbi', serverTime: heard }]);
    const porto = await buildStation(db, { name: 'Porto_Tower', userId: other.id });
    const lisbon = await buildStation(db, { name: 'Lisbon_Hill', userId: other.id });
    const reception = {
      packetId: id,
      userId: other.id,
      lat: 41.15,
      lng: -8.61,
      distance: 1234.5,
      elevation: 30,
      azimuth: 90,
      usecTime: null,
      doppler: 10,
      fDoppler: null,
      frequencyOffset: 5,
      crcError: 0,
      rssi: -100,
      snr: 2,
      frequencyError: 50,
    };
    // Inserted out of time order; the last one has every optional measure missing but f_doppler.
    await db
      .insertInto('receptions')
      .values([
        {
          ...reception,
          stationId: lisbon,
          serverTime: heard + 3000,
          lat: 38.7223,
          lng: -9.1393,
          distance: null,
          elevation: 12.25,
          azimuth: 301.5,
          usecTime: null,
          doppler: -2500.75,
          fDoppler: 0.125,
          frequencyOffset: null,
          crcError: 1,
          rssi: null,
          snr: -7.5,
          frequencyError: null,
        },
        { ...reception, stationId, userId: owner.id, serverTime: heard + 2000 },
        { ...reception, stationId: porto, serverTime: heard + 1000, usecTime: heard * 1000 + 17 },
      ])
      .execute();
    const res = await get(`/v1/packet/${id}`);
    const body = PacketDetailResponseSchema.parse(res.json());
    expect(body.stations.map((s) => s.name)).toEqual(['Porto_Tower', 'Madrid_Roof', 'Lisbon_Hill']);
    expect(body.stations[0]?.usec_time).toBe(heard * 1000 + 17);
    expect(body.stations[1]?.usec_time).toBe((heard + 2000) * 1000);
    expect(body.stations[1]).not.toHaveProperty('f_doppler');
    // The exact text, key order included, that community tools receive for the last station.
    const lisbonText = JSON.stringify({
      name: 'Lisbon_Hill',
      userId: other.id,
      location: [38.7223, -9.1393],
      distance: null,
      elevation: 12.25,
      azimuth: 301.5,
      usec_time: (heard + 3000) * 1000,
      doppler: -2500.75,
      frequency_offset: 0,
      crc_error: true,
      receptionParams: { rssi: 0, snr: -7.5, frequency_error: 0 },
      f_doppler: 0.125,
    });
    expect(res.body).toContain(`${lisbonText}]`);
    expect(body.stationNumber).toBe(0);
    expect(body.template).toBeTruthy();
    expect(body.name).toBe('Norby');
  });

  it('lists every public call in the OpenAPI document', async () => {
    const doc = (await get('/openapi.json')).json<{ paths: Record<string, unknown> }>();
    for (const path of [
      '/v1/statistics',
      '/v1/satellites',
      '/v1/satellitesIna',
      '/v1/satellite/{name}',
      '/v1/satellitesWorldmap',
      '/v1/tles.txt',
      '/v1/tinygs_supported.txt',
      '/v2/packets',
      '/v2/packetsIna',
      '/v1/packet/{id}',
      '/v1/stations',
      '/v1/station/{id}',
      '/v1/station/{id}/statistics',
      '/v1/packets',
      '/v1/export/packets',
      '/v1/search',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
