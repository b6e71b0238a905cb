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

// Every field of the row type must be listed (the Record type checks it); values bind by position,
// in this order (insertRow).
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

/**
 * A prepared single-row INSERT of `columns` (row key -> column), bound by position in the order of
 * the keys: binding by name looks every parameter up in the row object, which took as long as
 * SQLite's own insert of a wide row. `tail`: a conflict clause.
 */
function insertRow<T>(
  sqlite: SQLite.Database,
  table: string,
  columns: Record<keyof T & string, string>,
  tail = '',
): (row: T) => void {
  const keys = Object.keys(columns) as (keyof T & string)[];
  const statement = sqlite.prepare<unknown[]>(
    `INSERT INTO ${table} (${keys.map((k) => columns[k]).join(', ')}) VALUES (${keys
      .map(() => '?')
      .join(', ')}) ${tail}`,
  );
  const values = new Array<unknown>(keys.length);
  return (row) => {
    for (let i = 0; i < keys.length; i += 1) values[i] = row[keys[i] as keyof T] ?? null;
    statement.run(values);
  };
}

/** Row writes of one SQLite connection; run them inside the batch's transaction. */
export function sqliteRowWrites(sqlite: SQLite.Database): RowWrites {
  const packet = insertRow<NewPacket>(sqlite, 'packets', PACKET_COLUMNS);
  const reception = insertRow<NewReception>(sqlite, 'receptions', RECEPTION_COLUMNS);
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
  const daily = insertRow<DailyStationStat>(
    sqlite,
    'station_daily_stats',
    { stationId: 'station_id', day: 'day', satellite: 'satellite', frames: 'frames' },
    'ON CONFLICT (station_id, day, satellite) DO UPDATE SET frames = station_daily_stats.frames + excluded.frames',
  );
  const sample = insertRow<TelemetrySample>(
    sqlite,
    'telemetry_samples',
    { satellite: 'satellite', field: 'field', at: 'at', value: 'value' },
    TELEMETRY_SAMPLES_ON_CONFLICT,
  );
  const field = insertRow<FieldTotals>(
    sqlite,
    'telemetry_fields',
    {
      satellite: 'satellite',
      field: 'field',
      firstAt: 'first_at',
      lastAt: 'last_at',
      samples: 'samples',
    },
    TELEMETRY_FIELDS_ON_CONFLICT,
  );
  const rollup = insertRow<RollupRow>(
    sqlite,
    'telemetry_rollups',
    {
      satellite: 'satellite',
      field: 'field',
      bucket: 'bucket',
      start: 'start',
      min: 'min',
      max: 'max',
      sum: 'sum',
      count: 'count',
    },
    TELEMETRY_ROLLUPS_ON_CONFLICT,
  );
  const satelliteStats = sqlite.prepare<SatelliteReceptionStats>(`
    UPDATE satellites SET
      frames = frames + @frames,
      confirmed_packets = confirmed_packets + @confirmedPackets,
      last_packet_time = CASE WHEN last_packet_time IS NULL OR last_packet_time < @lastPacketTime
        THEN @lastPacketTime ELSE last_packet_time END
    WHERE name = @name`);
  const stationDay = insertRow<StationDayTally>(
    sqlite,
    'leaderboard_station_days',
    {
      day: 'day',
      stationId: 'station_id',
      confirmedPackets: 'confirmed_packets',
      recordDistanceKm: 'record_distance_km',
    },
    STATION_DAYS_ON_CONFLICT,
  );
  const stationSatellite = insertRow<StationSatelliteTally>(
    sqlite,
    'leaderboard_station_satellites',
    {
      stationId: 'station_id',
      satellite: 'satellite',
      firstHeard: 'first_heard',
      lastHeard: 'last_heard',
    },
    STATION_SATELLITES_ON_CONFLICT,
  );
  const satelliteDay = insertRow<SatelliteDayTally>(
    sqlite,
    'leaderboard_satellite_days',
    { day: 'day', satellite: 'satellite', packets: 'packets' },
    SATELLITE_DAYS_ON_CONFLICT,
  );
  return {
    telemetry: {
      fields: (rows) => rows.forEach(field),
      samples: (rows) => rows.forEach(sample),
      rollups: (rows) => rows.forEach(rollup),
    },
    addSatelliteStats: (stats) => {
      for (const s of stats) satelliteStats.run(s);
    },
    insertPackets: (rows) => rows.forEach(packet),
    insertReceptions: (rows) => rows.forEach(reception),
    addToStationNumbers: (items) => {
      for (const item of items) stationNumber.run(item.add, item.id);
    },
    addStationReceptionStats: (stats) => {
      for (const s of stats) stationStats.run(s);
    },
    addDailyStats: (stats) => stats.forEach(daily),
    addLeaderboardTallies: (tallies) => {
      tallies.stationDays.forEach(stationDay);
      tallies.stationSatellites.forEach(stationSatellite);
      tallies.satelliteDays.forEach(satelliteDay);
    },
  };
}
