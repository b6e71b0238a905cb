// Receptions over the real broker become packets: merged across stations, decoded, placed on the
// orbit, counted. CRC-error and test frames are kept but flagged.
import { subSatellitePoint, parseTle } from '@tinygs/orbit';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkPart } from '../src/network/part';
import { readCounters } from '../src/repositories/counters';
import { buildUser, leoTle, setSatelliteTle, type BuiltUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import {
  NORBI_FRAME,
  NORBI_FRAME_2,
  connectStation,
  publishTele,
  rxPayload,
  waitFor,
} from './network-helpers';

const b64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

describe.each(DIALECTS)('ingest of tele/rx on %s', (dialect) => {
  let server: TestServer;
  let user: BuiltUser;
  let near: MqttClient;
  let far: MqttClient;
  let nearLocation: [number, number];
  let farLocation: [number, number];
  const db = () => server.ctx.database.db;
  const packetsOf = (satellite: string) =>
    db()
      .selectFrom('packets')
      .selectAll()
      .where('satellite', '=', satellite)
      .orderBy('serverTime')
      .execute();

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      parts: [createNetworkPart({ flushIntervalMs: 20 })],
    });
    const tle = leoTle('NORBI', 46494);
    await setSatelliteTle(db(), 'Norbi', tle);
    await server.ctx.services.network?.catalogue.refresh();
    const point = subSatellitePoint(parseTle(tle), Date.now());
    if (!point) throw new Error('test TLE does not propagate');
    // One station almost under the satellite, one about 400 km away.
    nearLocation = [point.lat + 0.3, point.lng];
    farLocation = [point.lat - 3, point.lng + 1];
    user = await buildUser(db());
    near = await connectStation(server, user, 'Near_GS', { station_location: nearLocation });
    far = await connectStation(server, user, 'Far_GS', { station_location: farLocation });
    await waitFor(async () => (await readCounters(db())).stations === 2);
  });
  afterAll(async () => {
    await near?.endAsync();
    await far?.endAsync();
    await server?.stop();
  });

  it('merges two stations hearing the same frame into one decoded packet with orbit facts', async () => {
    await publishTele(
      near,
      user,
      'Near_GS',
      'rx',
      rxPayload({ station_location: nearLocation, data: NORBI_FRAME, rssi: -100 }),
    );
    await publishTele(
      far,
      user,
      'Far_GS',
      'rx',
      rxPayload({ station_location: farLocation, data: NORBI_FRAME, rssi: -118 }),
    );
    const [packet] = await waitFor(async () => {
      const rows = await packetsOf('Norbi');
      return rows.length === 1 && rows[0]?.stationNumber === 2 && rows;
    });
    if (!packet) throw new Error('no packet');
    expect(packet).toMatchObject({
      raw: NORBI_FRAME,
      mode: 'LoRa',
      freq: 436.703,
      sf: 10,
      cr: 5,
      bw: 250,
      norad: 46494,
      crcError: 0,
      isTest: 0,
    });
    const parsed = JSON.parse(packet.parsed ?? 'null') as { payload: { tinygsTxPower: number } };
    expect(parsed.payload.tinygsTxPower).toBeTypeOf('number');
    expect(packet.txPowerMw).toBe(parsed.payload.tinygsTxPower);
    expect(Math.abs((packet.satLat ?? 999) - (nearLocation[0] - 0.3))).toBeLessThan(1);
    expect(packet.satAlt).toBeGreaterThan(400);
    expect(packet.footPrint).toBeGreaterThan(2000);
    expect([0, 1]).toContain(packet.sunLit);
    expect(packet.eclipseDepth).toBeTypeOf('number');

    const receptions = await db()
      .selectFrom('receptions')
      .selectAll()
      .where('packetId', '=', packet.id)
      .orderBy('rssi', 'desc')
      .execute();
    expect(receptions.map((r) => r.stationId)).toEqual([`Near_GS@${user.id}`, `Far_GS@${user.id}`]);
    const [n, f] = receptions;
    expect(n?.elevation).toBeGreaterThan(70);
    expect(f?.elevation).toBeGreaterThan(0);
    expect(f?.elevation).toBeLessThan(n?.elevation ?? 0);
    expect(n?.distance).toBeLessThan(100);
    expect(f?.distance).toBeGreaterThan(250);
    for (const r of receptions) {
      expect(r.azimuth).toBeGreaterThanOrEqual(0);
      expect(r.azimuth).toBeLessThan(360);
      expect(Math.abs(r.doppler ?? 1e9)).toBeLessThan(15_000);
      expect(r).toMatchObject({ crcError: 0, frequencyError: 1250.5, userId: user.id });
    }

    const sat = await db()
      .selectFrom('satellites')
      .selectAll()
      .where('name', '=', 'Norbi')
      .executeTakeFirstOrThrow();
    expect(sat).toMatchObject({ frames: 2, confirmedPackets: 1 });
    expect(sat.lastPacketTime).toBeGreaterThan(Date.now() - 10_000);
    const nearRow = await db()
      .selectFrom('stations')
      .selectAll()
      .where('id', '=', `Near_GS@${user.id}`)
      .executeTakeFirstOrThrow();
    expect(nearRow).toMatchObject({ telemetryPackets: 1, confirmedPackets: 1 });
    expect(nearRow.recordDistanceKm).toBeGreaterThan(0);
    expect(nearRow.lastPacketTime).toBeGreaterThan(Date.now() - 10_000);
    const daily = await db()
      .selectFrom('stationDailyStats')
      .selectAll()
      .where('satellite', '=', 'Norbi')
      .execute();
    expect(daily).toHaveLength(2);
    expect(
      daily.every((d) => d.frames === 1 && d.day === new Date().toISOString().slice(0, 10)),
    ).toBe(true);
    const counters = await readCounters(db());
    expect(counters).toMatchObject({ packets: 1, receptions: 2 });

    // Other bytes are another packet; the same station repeating a frame is not a second reception.
    await publishTele(
      near,
      user,
      'Near_GS',
      'rx',
      rxPayload({ station_location: nearLocation, data: NORBI_FRAME_2 }),
    );
    await publishTele(
      near,
      user,
      'Near_GS',
      'rx',
      rxPayload({ station_location: nearLocation, data: NORBI_FRAME_2 }),
    );
    await waitFor(async () => (await packetsOf('Norbi')).length === 2);
    await server.ctx.services.network?.flush();
    expect((await packetsOf('Norbi'))[1]?.stationNumber).toBe(1);
    expect((await readCounters(db())).receptions).toBe(3);
  });

  it('keeps CRC-error frames as flagged receptions, counted apart and never merged', async () => {
    const before = await readCounters(db());
    const crc = {
      satellite: 'FEES',
      NORAD: 48082,
      frequency: 437.2,
      crc_error: true,
      data: b64('Error_CRC'),
    };
    await publishTele(
      near,
      user,
      'Near_GS',
      'rx',
      rxPayload({ ...crc, station_location: nearLocation }),
    );
    await publishTele(
      far,
      user,
      'Far_GS',
      'rx',
      rxPayload({ ...crc, station_location: farLocation }),
    );
    const rows = await waitFor(async () => {
      const r = await packetsOf('FEES');
      return r.length === 2 && r;
    });
    expect(rows.every((p) => p.crcError === 1 && p.parsed === null && p.stationNumber === 1)).toBe(
      true,
    );
    const after = await readCounters(db());
    expect(after.crcErrors - before.crcErrors).toBe(2);
    expect(after.packets).toBe(before.packets);
    const fees = await db()
      .selectFrom('satellites')
      .select(['frames', 'confirmedPackets'])
      .where('name', '=', 'FEES')
      .executeTakeFirstOrThrow();
    expect(fees).toEqual({ frames: 0, confirmedPackets: 0 });
    const nearRow = await db()
      .selectFrom('stations')
      .select('crcErrors')
      .where('id', '=', `Near_GS@${user.id}`)
      .executeTakeFirstOrThrow();
    expect(nearRow.crcErrors).toBe(1);
  });

  it('flags test frames and stores FSK receptions with their modem fields', async () => {
    await publishTele(
      near,
      user,
      'Near_GS',
      'rx',
      rxPayload({
        station_location: nearLocation,
        satellite: 'Norbi',
        data: b64('TinyGS-test hello'),
      }),
    );
    await publishTele(
      near,
      user,
      'Near_GS',
      'rx',
      rxPayload({
        mode: 'FSK',
        satellite: 'Avocet',
        NORAD: 98112,
        frequency: 145.92,
        bitrate: 9.6,
        freqdev: 3,
        rxBw: 25,
        sf: undefined,
        cr: undefined,
        bw: undefined,
        data: b64('not a demo frame'),
      }),
    );
    const test = await waitFor(async () => (await packetsOf('Norbi')).find((p) => p.isTest === 1));
    expect(test.parsed).toBeNull();
    const fsk = await waitFor(async () => (await packetsOf('Avocet'))[0]);
    expect(fsk).toMatchObject({
      mode: 'FSK',
      bitrate: 9.6,
      freqDev: 3,
      rxBw: 25,
      sf: null,
      bw: null,
      parsed: null,
    });
  });
});
