// The SQLite writer thread's prepared row writes (repositories/sqlite/ingest-rows.ts) bind their
// values by position: every column of what a batch stores must land in its own column, as the
// portable writes (repositories/) put it. A batch is planned, packed and unpacked as the thread
// gets it, written with the prepared statements, and read back column by column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPacket, NewReception } from '../src/db/schema';
import { planReceptions, type ReceptionWrite } from '../src/network/ingest/plan-batch';
import { packRows, unpackRows } from '../src/network/ingest/packed-rows';
import { writeBatch } from '../src/network/ingest/write-batch';
import { sqliteRowWrites } from '../src/repositories/sqlite/ingest-rows';
import { buildStation, buildUser } from './factories';
import { startTestServer, type TestServer } from './harness';

const T = Date.UTC(2026, 10, 28, 12, 0, 0, 250);

describe('SQLite prepared row writes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('store every column of a batch where the portable writes put it', async () => {
    const db = server.ctx.database.db;
    const native = server.ctx.database.native;
    if (native.dialect !== 'sqlite') throw new Error('expected SQLite');
    const user = await buildUser(db);
    const stationId = await buildStation(db, { userId: user.id, name: 'Rows_GS' });
    const satellite = (await db.selectFrom('satellites').select('name').executeTakeFirstOrThrow())
      .name;

    // distinct values in every column, so that two columns swapped cannot go unseen
    const packet: NewPacket = {
      id: '6a2f0c1e0123456789abcdef',
      satellite,
      norad: 46494,
      serverTime: T,
      raw: 'jv////8KBgHJwJg=',
      frameHash: 'f'.repeat(64),
      mode: 'LoRa',
      freq: 436.703,
      sf: 10,
      cr: 5,
      bw: 250,
      bitrate: 9.6,
      freqDev: 4.8,
      rxBw: 19.5,
      parsed: '{"payload":{"batteryVoltage":7.4,"temperature":-3}}',
      crcError: 0,
      isTest: 0,
      satLat: 51.5,
      satLng: -0.125,
      satAlt: 550.25,
      sunLit: 1,
      eclipseDepth: -12.5,
      footPrint: 2600.75,
      stationNumber: 0,
      txPowerMw: 2000,
      historical: 0,
      unverified: 0,
    };
    const reception: NewReception = {
      packetId: packet.id,
      stationId,
      userId: user.id,
      serverTime: T + 5,
      lat: 40.4,
      lng: -3.7,
      distance: 1234.5,
      elevation: 33.25,
      azimuth: 201.75,
      usecTime: T * 1000 + 17,
      doppler: -8123.5,
      fDoppler: 9120,
      frequencyOffset: 1500,
      crcError: 0,
      rssi: -121.5,
      snr: -7.25,
      frequencyError: 1520.3,
    };
    const write: ReceptionWrite = {
      packetId: packet.id,
      newPacket: packet,
      reception,
      satelliteName: satellite,
      satDisplayName: satellite,
      satPos: { lat: 51.5, lng: -0.125, alt: 550.25 },
      crcError: false,
      decoded: true,
    };
    // a later frame the same station heard (not a confirmed packet for it): the station's first and
    // last heard and the series' first and newest samples differ
    const later: ReceptionWrite = {
      ...write,
      packetId: '6a2f0c1f0123456789abcdef',
      newPacket: {
        ...packet,
        id: '6a2f0c1f0123456789abcdef',
        serverTime: T + 900,
        parsed: '{"payload":{"batteryVoltage":7.2,"temperature":-4}}',
      },
      reception: {
        ...reception,
        packetId: '6a2f0c1f0123456789abcdef',
        serverTime: T + 900,
        distance: 99.5,
      },
      decoded: false,
    };
    const { rows } = planReceptions([write, later], null);
    const { packed } = packRows(rows);
    await db.transaction().execute((trx) =>
      writeBatch(
        trx,
        {
          lifecycle: [],
          droppedMessages: 0,
          receptions: { shared: false, rows: unpackRows(packed) },
        },
        sqliteRowWrites(native.sqlite),
      ),
    );

    expect(
      await db.selectFrom('packets').selectAll().where('id', '=', packet.id).executeTakeFirst(),
    ).toEqual({ ...packet, stationNumber: 1 });
    expect(
      await db.selectFrom('receptions').selectAll().where('packetId', '=', packet.id).execute(),
    ).toEqual([reception]);
    // the only rows of these tables: nothing else was stored
    const stored = (
      table:
        | 'stationDailyStats'
        | 'leaderboardStationDays'
        | 'leaderboardStationSatellites'
        | 'telemetryFields'
        | 'telemetrySamples'
        | 'telemetryRollups',
    ) => db.selectFrom(table).selectAll().execute();
    expect(await stored('stationDailyStats')).toEqual([
      { stationId, day: '2026-11-28', satellite, frames: 2 },
    ]);
    expect(await stored('leaderboardStationDays')).toEqual([
      { day: '2026-11-28', stationId, confirmedPackets: 1, recordDistanceKm: 1234.5 },
    ]);
    expect(await stored('leaderboardStationSatellites')).toEqual([
      { stationId, satellite, firstHeard: T + 5, lastHeard: T + 900 },
    ]);
    const battery = { satellite, field: 'payload.batteryVoltage' };
    const temperature = { satellite, field: 'payload.temperature' };
    expect(await stored('telemetryFields')).toEqual([
      { ...battery, firstAt: T, lastAt: T + 900, samples: 2 },
      { ...temperature, firstAt: T, lastAt: T + 900, samples: 2 },
    ]);
    // raw samples are timed to the second
    expect(await stored('telemetrySamples')).toEqual([
      { ...battery, at: T - 250, value: 7.4 },
      { ...battery, at: T + 750, value: 7.2 },
      { ...temperature, at: T - 250, value: -3 },
      { ...temperature, at: T + 750, value: -4 },
    ]);
    const hour = { bucket: 'hour', start: T - (T % 3_600_000) };
    const day = { bucket: 'day', start: T - (T % 86_400_000) };
    const two = (first: number, second: number) => ({
      min: Math.min(first, second),
      max: Math.max(first, second),
      sum: first + second,
      count: 2,
    });
    expect(await stored('telemetryRollups')).toEqual([
      { ...battery, ...day, ...two(7.4, 7.2) },
      { ...battery, ...hour, ...two(7.4, 7.2) },
      { ...temperature, ...day, ...two(-3, -4) },
      { ...temperature, ...hour, ...two(-3, -4) },
    ]);
  });
});
