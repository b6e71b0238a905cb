// The ingest's row writes on SQLite as statements prepared once per writer connection. Through the
// query builder every batch built, compiled and had SQLite parse a multi-row INSERT of a thousand
// rows (about half the writer thread's time); a prepared single-row INSERT run per row inside the
// batch's transaction does the same work without that. Same tables and columns as the portable
// versions in repositories/packets.ts, stations.ts, telemetry.ts and leaderboards.ts, which
// PostgreSQL (and SQLite without the writer thread) keeps using.
import type SQLite from 'better-sqlite3';
import type { NewPacket, NewReception, PacketsTable, ReceptionsTable } from '../../db/schema';
import {
  SATELLITE_DAYS_ON_CONFLICT,
  STATION_DAYS_ON_CONFLICT,
  STATION_SATELLITES_ON_CONFLICT,
  type SatelliteDayTally,
  type StationDayTally,
  type StationSatelliteTally,
} from '../leaderboards';
import type { DailyStationStat, SatelliteReceptionStats } from '../packets';
import {
  TELEMETRY_FIELDS_ON_CONFLICT,
  TELEMETRY_ROLLUPS_ON_CONFLICT,
  TELEMETRY_SAMPLES_ON_CONFLICT,
  type FieldTotals,
  type RollupRow,
} from '../telemetry';
import type { StationReceptionStats } from '../stations';
import type { TelemetrySample } from '../../telemetry/samples';
import type { RowWrites } from '../../network/ingest/write-batch';

// Every field of the row type must be listed (the Record type checks it); values bind by name.
const PACKET_COLUMNS: Record<keyof PacketsTable, string> = {
  id: 'id',
  satellite: 'satellite',
  norad: 'norad',
  serverTime: 'server_time',
  raw: 'raw',
  frameHash: 'frame_hash',
  mode: 'mode',
  freq: 'freq',
  sf: 'sf',
  cr: 'cr',
  bw: 'bw',
  bitrate: 'bitrate',
  freqDev: 'freq_dev',
  rxBw: 'rx_bw',
  parsed: 'parsed',
  crcError: 'crc_error',
  isTest: 'is_test',
  satLat: 'sat_lat',
  satLng: 'sat_lng',
  satAlt: 'sat_alt',
  sunLit: 'sun_lit',
  eclipseDepth: 'eclipse_depth',
  footPrint: 'foot_print',
  stationNumber: 'station_number',
  txPowerMw: 'tx_power_mw',
  historical: 'historical',
  unverified: 'unverified',
};

const RECEPTION_COLUMNS: Record<keyof ReceptionsTable, string> = {
  packetId: 'packet_id',
  stationId: 'station_id',
  userId: 'user_id',
  serverTime: 'server_time',
  lat: 'lat',
  lng: 'lng',
  distance: 'distance',
  elevation: 'elevation',
  azimuth: 'azimuth',
  usecTime: 'usec_time',
  doppler: 'doppler',
  fDoppler: 'f_doppler',
  frequencyOffset: 'frequency_offset',
  crcError: 'crc_error',
  rssi: 'rssi',
  snr: 'snr',
  frequencyError: 'frequency_error',
};

function insertSql(table: string, columns: Record<string, string>): string {
  const keys = Object.keys(columns);
  return `INSERT INTO ${table} (${keys.map((k) => columns[k]).join(', ')}) VALUES (${keys
    .map((k) => `@${k}`)
    .join(', ')})`;
}

/** Row writes of one SQLite connection; run them inside the batch's transaction. */
export function sqliteRowWrites(sqlite: SQLite.Database): RowWrites {
  const packet = sqlite.prepare<NewPacket>(insertSql('packets', PACKET_COLUMNS));
  const reception = sqlite.prepare<NewReception>(insertSql('receptions', RECEPTION_COLUMNS));
  const stationNumber = sqlite.prepare<[number, string]>(
    'UPDATE packets SET station_number = station_number + ? WHERE id = ?',
  );
  const stationStats = sqlite.prepare<StationReceptionStats>(`
    UPDATE stations SET
      telemetry_packets = telemetry_packets + @telemetryPackets,
      confirmed_packets = confirmed_packets + @confirmedPackets,
      crc_errors = crc_errors + @crcErrors,
      last_packet_time = CASE WHEN @lastPacketTime IS NOT NULL AND (last_packet_time IS NULL OR @lastPacketTime > last_packet_time)
        THEN @lastPacketTime ELSE last_packet_time END,
      last_seen = CASE WHEN last_seen IS NULL OR @lastSeen > last_seen THEN @lastSeen ELSE last_seen END,
      record_distance_km = CASE WHEN @maxDistanceKm IS NOT NULL AND @maxDistanceKm > record_distance_km
        THEN @maxDistanceKm ELSE record_distance_km END
    WHERE id = @id`);
  const daily = sqlite.prepare<DailyStationStat>(`
    INSERT INTO station_daily_stats (station_id, day, satellite, frames)
    VALUES (@stationId, @day, @satellite, @frames)
    ON CONFLICT (station_id, day, satellite) DO UPDATE SET frames = station_daily_stats.frames + excluded.frames`);
  const sample = sqlite.prepare<TelemetrySample>(
    `INSERT INTO telemetry_samples (satellite, field, at, value) VALUES (@satellite, @field, @at, @value) ${TELEMETRY_SAMPLES_ON_CONFLICT}`,
  );
  const field = sqlite.prepare<FieldTotals>(`
    INSERT INTO telemetry_fields (satellite, field, first_at, last_at, samples)
    VALUES (@satellite, @field, @firstAt, @lastAt, @samples) ${TELEMETRY_FIELDS_ON_CONFLICT}`);
  const rollup = sqlite.prepare<RollupRow>(`
    INSERT INTO telemetry_rollups (satellite, field, bucket, start, min, max, sum, count)
    VALUES (@satellite, @field, @bucket, @start, @min, @max, @sum, @count) ${TELEMETRY_ROLLUPS_ON_CONFLICT}`);
  const satelliteStats = sqlite.prepare<SatelliteReceptionStats>(`
    UPDATE satellites SET
      frames = frames + @frames,
      confirmed_packets = confirmed_packets + @confirmedPackets,
      last_packet_time = CASE WHEN last_packet_time IS NULL OR last_packet_time < @lastPacketTime
        THEN @lastPacketTime ELSE last_packet_time END
    WHERE name = @name`);
  const stationDay = sqlite.prepare<StationDayTally>(`
    INSERT INTO leaderboard_station_days (day, station_id, confirmed_packets, record_distance_km)
    VALUES (@day, @stationId, @confirmedPackets, @recordDistanceKm) ${STATION_DAYS_ON_CONFLICT}`);
  const stationSatellite = sqlite.prepare<StationSatelliteTally>(`
    INSERT INTO leaderboard_station_satellites (station_id, satellite, first_heard, last_heard)
    VALUES (@stationId, @satellite, @firstHeard, @lastHeard) ${STATION_SATELLITES_ON_CONFLICT}`);
  const satelliteDay = sqlite.prepare<SatelliteDayTally>(`
    INSERT INTO leaderboard_satellite_days (day, satellite, packets)
    VALUES (@day, @satellite, @packets) ${SATELLITE_DAYS_ON_CONFLICT}`);
  return {
    telemetry: {
      fields: (rows) => {
        for (const row of rows) field.run(row);
      },
      samples: (rows) => {
        for (const row of rows) sample.run(row);
      },
      rollups: (rows) => {
        for (const row of rows) rollup.run(row);
      },
    },
    addSatelliteStats: (stats) => {
      for (const s of stats) satelliteStats.run(s);
    },
    insertPackets: (rows) => {
      for (const row of rows) packet.run(row);
    },
    insertReceptions: (rows) => {
      for (const row of rows) reception.run(row);
    },
    addToStationNumbers: (items) => {
      for (const item of items) stationNumber.run(item.add, item.id);
    },
    addStationReceptionStats: (stats) => {
      for (const s of stats) stationStats.run(s);
    },
    addDailyStats: (stats) => {
      for (const s of stats) daily.run(s);
    },
    addLeaderboardTallies: (tallies) => {
      for (const t of tallies.stationDays) stationDay.run(t);
      for (const t of tallies.stationSatellites) stationSatellite.run(t);
      for (const t of tallies.satelliteDays) satelliteDay.run(t);
    },
  };
}
