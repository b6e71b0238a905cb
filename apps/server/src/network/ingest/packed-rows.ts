// A batch's rows as a writer thread gets them (thread-store.ts). Copying an array of objects to a
// thread (structured clone) writes every key of every object and makes the thread build each one
// again, key by key: at thousands of receptions a second that was a measurable share of both
// threads. The tables of one row per reception or station (packets, receptions, station and daily
// statistics, leaderboard tallies) travel instead as typed arrays in the column order of a layout
// both sides share: a Float64Array of their numbers (NaN stands for null, as SQLite stores a NaN;
// on PostgreSQL a NaN, which no planned number should be, is stored as null too) and an Int32Array of their texts as numbers in
// the batch's list of distinct texts (-1 for null), since the same station ids, days and satellite
// names fill most of them. The arrays are moved to the thread, not copied; only the list of texts
// is. The thread builds the same rows again (`unpackRows`); the small tables go as they are.
import type { NewPacket, NewReception } from '../../db/schema';
import type { StationDayTally, StationSatelliteTally } from '../../repositories/leaderboards';
import type { DailyStationStat } from '../../repositories/packets';
import type { StationReceptionStats } from '../../repositories/stations';
import type { ReceptionRows } from './plan-batch';

type Kind = 'number' | 'text';
/** Every column of a row type, with how it travels (the Record type makes the list complete). */
type Layout<T> = Record<keyof Required<T>, Kind>;

const PACKET: Layout<NewPacket> = {
  id: 'text',
  satellite: 'text',
  norad: 'number',
  serverTime: 'number',
  raw: 'text',
  frameHash: 'text',
  mode: 'text',
  freq: 'number',
  sf: 'number',
  cr: 'number',
  bw: 'number',
  bitrate: 'number',
  freqDev: 'number',
  rxBw: 'number',
  parsed: 'text',
  crcError: 'number',
  isTest: 'number',
  satLat: 'number',
  satLng: 'number',
  satAlt: 'number',
  sunLit: 'number',
  eclipseDepth: 'number',
  footPrint: 'number',
  stationNumber: 'number',
  txPowerMw: 'number',
  historical: 'number',
  unverified: 'number',
};
const RECEPTION: Layout<NewReception> = {
  packetId: 'text',
  stationId: 'text',
  userId: 'text',
  serverTime: 'number',
  lat: 'number',
  lng: 'number',
  distance: 'number',
  elevation: 'number',
  azimuth: 'number',
  usecTime: 'number',
  doppler: 'number',
  fDoppler: 'number',
  frequencyOffset: 'number',
  crcError: 'number',
  rssi: 'number',
  snr: 'number',
  frequencyError: 'number',
};
const STATION_STATS: Layout<StationReceptionStats> = {
  id: 'text',
  telemetryPackets: 'number',
  confirmedPackets: 'number',
  crcErrors: 'number',
  lastPacketTime: 'number',
  lastSeen: 'number',
  maxDistanceKm: 'number',
};
const DAILY: Layout<DailyStationStat> = {
  stationId: 'text',
  day: 'text',
  satellite: 'text',
  frames: 'number',
};
const STATION_DAY: Layout<StationDayTally> = {
  day: 'text',
  stationId: 'text',
  confirmedPackets: 'number',
  recordDistanceKm: 'number',
};
const STATION_SATELLITE: Layout<StationSatelliteTally> = {
  stationId: 'text',
  satellite: 'text',
  firstHeard: 'number',
  lastHeard: 'number',
};

interface Columns {
  numbers: string[];
  texts: string[];
}

function columnsOf<T>(layout: Layout<T>): Columns {
  const entries = Object.entries(layout) as [string, Kind][];
  return {
    numbers: entries.filter(([, kind]) => kind === 'number').map(([key]) => key),
    texts: entries.filter(([, kind]) => kind === 'text').map(([key]) => key),
  };
}

const COLUMNS = {
  packets: columnsOf(PACKET),
  receptions: columnsOf(RECEPTION),
  stationStats: columnsOf(STATION_STATS),
  dailyStats: columnsOf(DAILY),
  stationDays: columnsOf(STATION_DAY),
  stationSatellites: columnsOf(STATION_SATELLITE),
};

/** Rows of one layout: their numbers row by row (NaN for null), their texts row by row. */
export interface PackedTable {
  count: number;
  numbers: Float64Array;
  /** positions in the batch's list of texts (PackedRows.texts); -1 for null */
  texts: Int32Array;
}

/** The distinct texts of one batch, each numbered once. */
class TextList {
  readonly texts: string[] = [];
  private readonly numbers = new Map<string, number>();
  numberOf(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.texts.length;
      this.texts.push(text);
      this.numbers.set(text, n);
    }
    return n;
  }
}

function packTable(rows: readonly object[], columns: Columns, list: TextList): PackedTable {
  const numbers = new Float64Array(rows.length * columns.numbers.length);
  const texts = new Int32Array(rows.length * columns.texts.length);
  let n = 0;
  let t = 0;
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (const key of columns.numbers) {
      const v = r[key];
      if (typeof v === 'number') numbers[n] = v;
      else if (v === null || v === undefined) numbers[n] = Number.NaN;
      else throw new Error(`column ${key} holds a ${typeof v}, not a number`);
      n += 1;
    }
    for (const key of columns.texts) {
      const v = r[key];
      if (typeof v === 'string') texts[t] = list.numberOf(v);
      else if (v === null || v === undefined) texts[t] = -1;
      else throw new Error(`column ${key} holds a ${typeof v}, not a text`);
      t += 1;
    }
  }
  return { count: rows.length, numbers, texts };
}

function unpackTable<T>(table: PackedTable, columns: Columns, list: readonly string[]): T[] {
  const rows = new Array<T>(table.count);
  let n = 0;
  let t = 0;
  for (let i = 0; i < table.count; i += 1) {
    const row: Record<string, unknown> = {};
    for (const key of columns.numbers) {
      const v = table.numbers[n] ?? Number.NaN;
      row[key] = Number.isNaN(v) ? null : v;
      n += 1;
    }
    for (const key of columns.texts) {
      row[key] = list[table.texts[t] ?? -1] ?? null;
      t += 1;
    }
    rows[i] = row as T;
  }
  return rows;
}

type Packed = 'packets' | 'receptions' | 'stationStats' | 'dailyStats';

/** ReceptionRows as they travel to the writer thread. */
export interface PackedRows extends Omit<ReceptionRows, Packed | 'samplesOf' | 'leaderboards'> {
  /** the distinct texts of the packed tables */
  texts: string[];
  packets: PackedTable;
  receptions: PackedTable;
  stationStats: PackedTable;
  dailyStats: PackedTable;
  leaderboards: {
    stationDays: PackedTable;
    stationSatellites: PackedTable;
    satelliteDays: ReceptionRows['leaderboards']['satelliteDays'];
  };
}

/**
 * Packs a batch's rows; `transfer`: the buffers to move with the message. The telemetry samples
 * come from the new packets (`samplesOf` is `packets` in a batch that is not shared, the only kind
 * the thread takes), so they travel once.
 */
export function packRows(rows: ReceptionRows): { packed: PackedRows; transfer: ArrayBuffer[] } {
  if (rows.samplesOf !== rows.packets)
    throw new Error('the writer thread takes batches whose samples are of their new packets');
  const { packets, receptions, stationStats, dailyStats, samplesOf: _, ...small } = rows;
  const list = new TextList();
  const packed: PackedRows = {
    ...small,
    packets: packTable(packets, COLUMNS.packets, list),
    receptions: packTable(receptions, COLUMNS.receptions, list),
    stationStats: packTable(stationStats, COLUMNS.stationStats, list),
    dailyStats: packTable(dailyStats, COLUMNS.dailyStats, list),
    leaderboards: {
      stationDays: packTable(rows.leaderboards.stationDays, COLUMNS.stationDays, list),
      stationSatellites: packTable(
        rows.leaderboards.stationSatellites,
        COLUMNS.stationSatellites,
        list,
      ),
      satelliteDays: rows.leaderboards.satelliteDays,
    },
    texts: list.texts,
  };
  const tables = [
    packed.packets,
    packed.receptions,
    packed.stationStats,
    packed.dailyStats,
    packed.leaderboards.stationDays,
    packed.leaderboards.stationSatellites,
  ];
  return {
    packed,
    transfer: tables.flatMap((t) => [t.numbers.buffer, t.texts.buffer] as ArrayBuffer[]),
  };
}

/** The rows `packRows` packed, as the batch writes them. */
export function unpackRows(packed: PackedRows): ReceptionRows {
  const { texts, ...rest } = packed;
  const packets = unpackTable<NewPacket>(packed.packets, COLUMNS.packets, texts);
  return {
    ...rest,
    packets,
    receptions: unpackTable<NewReception>(packed.receptions, COLUMNS.receptions, texts),
    stationStats: unpackTable<StationReceptionStats>(
      packed.stationStats,
      COLUMNS.stationStats,
      texts,
    ),
    dailyStats: unpackTable<DailyStationStat>(packed.dailyStats, COLUMNS.dailyStats, texts),
    leaderboards: {
      stationDays: unpackTable<StationDayTally>(
        packed.leaderboards.stationDays,
        COLUMNS.stationDays,
        texts,
      ),
      stationSatellites: unpackTable<StationSatelliteTally>(
        packed.leaderboards.stationSatellites,
        COLUMNS.stationSatellites,
        texts,
      ),
      satelliteDays: packed.leaderboards.satelliteDays,
    },
    samplesOf: packets,
  };
}
