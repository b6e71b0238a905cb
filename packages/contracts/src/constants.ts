// Business constants of SPEC.md section 9 and facts of PROTOCOL.md. Units are in the names.
import { base64StartsWith } from './binary';

export const PRODUCT_NAME_DEFAULT = 'TinyGS';

export const SATELLITE_STATUSES = [
  'Supported',
  'Future',
  'Experimental',
  'Inactive',
  'SupportedSL',
  'Surveillance',
  'Balloon',
  'BInactive',
  'BFuture',
] as const;
type SatelliteStatusName = (typeof SATELLITE_STATUSES)[number];

export const MODEM_MODES = ['LoRa', 'FSK'] as const;
export type ModemMode = (typeof MODEM_MODES)[number];

// Timing
export const LOGIN_WAIT_MS = 30_000;
export const LOGIN_SUCCESS_CLOSE_MS = 2_000;
export const STATION_CREATION_POLL_MS = 20_000;
export const STATION_CREATED_POLL_MS = STATION_CREATION_POLL_MS;
export const EMAIL_COOLDOWN_MS = 60_000;
export const EMAIL_COOLDOWN_MAX_MS = 24 * 60 * 60 * 1000;
export const EMAIL_WRITE_DEBOUNCE_MS = 5_000;
export const TX_LOCK_MS = 1_000;
export const TEST_FRAME_LOCK_MS = 20_000;
export const API_TIMEOUT_MS = 30_000;
/** First try plus 2 retries. */
export const STATION_FETCH_ATTEMPTS = 3;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** More than PACKET_PAGING_BURST_LIMIT requests within the window are delayed to PACKET_PAGING_DELAY_MS. */
export const PACKET_PAGING_BURST_LIMIT = 3;
export const PACKET_PAGING_BURST_WINDOW_MS = 10_000;
export const PACKET_PAGING_DELAY_MS = 11_000;

// Frequency bands (MHz, exclusive bounds)
export const BANDS = [137, 433, 900, 2400] as const;
export type Band = (typeof BANDS)[number];
/** 0 means auto-tune disabled (manual tuning). */
export const AUTO_TUNE_VALUES = [137, 433, 900, 2400, 0] as const;
export type AutoTuneValue = (typeof AUTO_TUNE_VALUES)[number];

export interface FrequencyBand {
  band: Band;
  label: string;
  lowMHz: number;
  highMHz: number;
}
export const FREQUENCY_BANDS: readonly FrequencyBand[] = [
  { band: 137, label: '137', lowMHz: 130, highMHz: 300 },
  { band: 433, label: '433', lowMHz: 400, highMHz: 550 },
  { band: 900, label: '868-915', lowMHz: 800, highMHz: 950 },
  { band: 2400, label: '2400', lowMHz: 2100, highMHz: 2500 },
];

/** Band whose open interval (lowMHz, highMHz) holds the frequency; null outside every band. */
export function bandOfFrequency(freqMHz: number): Band | null {
  for (const b of FREQUENCY_BANDS) {
    if (freqMHz > b.lowMHz && freqMHz < b.highMHz) return b.band;
  }
  return null;
}

// Satellite tables and filters
export const SATELLITE_TABLE_MIN_FRAMES = 10;
export const SATELLITE_TABLE_MAX_AGE_DAYS = 365;

export interface SatelliteListFilter {
  statuses: readonly SatelliteStatusName[];
  band?: Band;
  mode?: ModemMode;
}
export const SATELLITE_LIST_FILTERS = {
  active: { statuses: ['Supported'] },
  fsk: { statuses: ['Supported'], band: 433, mode: 'FSK' },
  starlink: { statuses: ['SupportedSL'], band: 137 },
  inactive: { statuses: ['Inactive'] },
  future: { statuses: ['Future', 'Experimental'] },
  surveillance: { statuses: ['Surveillance'] },
  balloons: { statuses: ['Balloon', 'BInactive'] },
} as const satisfies Record<string, SatelliteListFilter>;
export type SatelliteListKey = keyof typeof SATELLITE_LIST_FILTERS;

export const INACTIVE_PACKETS_SHOWN = 100;
export const PACKETS_PAGE_SIZE = 50;
/** Largest page `GET /v2/packets?station=&limit=` serves (community tools paging a busy station). */
export const PACKETS_V2_MAX_LIMIT = 500;

// Map
export const MAP_POSITION_REFRESH_MS = 5_000;
export const ORBIT_PATH_MINUTES = 190;
export const ORBIT_PATH_STEP_MINUTES = 1;
/**
 * An element set older than this is flagged stale (API `tleStale`, the satellite page) and
 * auto-tune prefers satellites with fresher ones: SGP4 errors grow to tens of km within days.
 */
export const TLE_STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** True when an element set of this epoch is stale at `now`. */
export function isTleStale(tleEpochMs: number, now: number = Date.now()): boolean {
  return now - tleEpochMs > TLE_STALE_AFTER_MS;
}
export const EARTH_RADIUS_KM = 6378.137;
export const MAP_DEFAULT_ZOOM = 2;
/** [lat, lng] */
export const MAP_DEFAULT_CENTER: readonly [number, number] = [16, 5];
/** Satellite imagery at zoom <= this, street tiles above. */
export const MAP_IMAGERY_MAX_ZOOM = 4;
export const PING_ANIMATION_MS = 2_500;
export const TICKER_ITEM_MS = 3_000;
export const SOUND_MODES = ['off', 'beep', 'geiger', 'radar', 'sonar'] as const;
export type SoundMode = (typeof SOUND_MODES)[number];
export const DEFAULT_SOUND_MODE: SoundMode = 'radar';
/** Packet-page map circle radius in metres = factor x footPrint (km); default when no footprint. */
export const PACKET_MAP_FOOTPRINT_FACTOR = 500;
export const PACKET_MAP_DEFAULT_RADIUS_M = 3_000;
export const STATION_MARKER_CIRCLES_KM = [1000, 2000, 3000] as const;
export const RADIATION_CIRCLE_STEP_KM = 500;
export const RADIATION_MAX_KM = 3000;
export const RADIATION_RADIAL_STEP_DEG = 22.5;
export const HEATMAP_MAX_FRAMES = 2000;
export const HEATMAP_CIRCLE_KM = 300;
export const STATION_STATS_DAYS = 30;

// Raw frame markers (PROTOCOL.md)
export const TEST_FRAME_PREFIX = 'TinyGS-test ';
export const CRC_ERROR_MARKER = 'Error_CRC';

// Transmit power groups of the packet map
export const TX_POWER_GROUPS = [
  { id: '<=100', label: 'Up to 100 mW', maxMw: 100 },
  { id: '101-500', label: '101-500 mW', maxMw: 500 },
  { id: '501-1000', label: '501-1000 mW', maxMw: 1000 },
  { id: '1001-2000', label: '1001-2000 mW', maxMw: 2000 },
  { id: '>2000', label: 'Above 2000 mW', maxMw: Number.POSITIVE_INFINITY },
  { id: 'no-power', label: 'No Telemetry', maxMw: null },
  { id: 'crc-error', label: 'CRC error', maxMw: null },
] as const;
export type TxPowerGroupId = (typeof TX_POWER_GROUPS)[number]['id'];

export interface TxPowerInput {
  raw?: string | null;
  /** mW, as on the packet detail */
  txPower?: number | null;
  /** decoded frame; its payload.tinygsTxPower (mW) is used when txPower is absent */
  parsed?: unknown;
}

function parsedTxPowerMw(parsed: unknown): number | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const payload: unknown = (parsed as { payload?: unknown }).payload;
  if (typeof payload !== 'object' || payload === null) return undefined;
  const value: unknown = (payload as { tinygsTxPower?: unknown }).tinygsTxPower;
  return typeof value === 'number' ? value : undefined;
}

/** Group of a packet on the packet map: CRC error first, then by transmit power in mW. */
export function txPowerGroup(packet: TxPowerInput): TxPowerGroupId {
  if (packet.raw && base64StartsWith(packet.raw, CRC_ERROR_MARKER)) return 'crc-error';
  const mw = packet.txPower ?? parsedTxPowerMw(packet.parsed);
  if (typeof mw !== 'number' || !Number.isFinite(mw)) return 'no-power';
  if (mw <= 100) return '<=100';
  if (mw <= 500) return '101-500';
  if (mw <= 1000) return '501-1000';
  if (mw <= 2000) return '1001-2000';
  return '>2000';
}

export function isCrcErrorRaw(raw: string): boolean {
  return base64StartsWith(raw, CRC_ERROR_MARKER);
}

export function isTestFrameRaw(raw: string): boolean {
  return base64StartsWith(raw, TEST_FRAME_PREFIX);
}

// Station editing
export const DESCRIPTION_MAX_CHARS = 500;
export const TX_TEXT_MAX_CHARS = 25;
export const TX_MAX_BYTES = 255;
export const PICTURE_MAX_BYTES = 3 * 1024 * 1024;
export const PICTURE_MAX_FILES = 10;
export const PICTURE_WIDTH_PX = 1080;
export const THUMBNAIL_WIDTH_PX = 150;
export const ANTENNA_BAND_MIN_MHZ = 90;
export const ANTENNA_BAND_MAX_MHZ = 2500;
/** [low, high] MHz */
export const ANTENNA_BAND_DEFAULT_MHZ: readonly [number, number] = [100, 960];
export const ANTENNA_TYPES = [
  'Dipole',
  'V-Dipole',
  'Discone',
  '1/4 collinear',
  '5/8 collinear',
  'Eggbeater',
  'Eggbeater 2',
  '1/4 ground plane',
  '5/8 ground plane',
  'Helical',
  'Inverted-F',
  'J-pole',
  'Lindenblad',
  'Lindenblad Parasitic',
  'Moxon',
  'Parabolic',
  'Patch',
  'QFH Quadrifilar',
  'Turnstile',
  'Random Wire',
  'Rusty Nail',
  'Slim-Jim',
  'Yagi-Uda',
  'Yagi-Uda Cross',
] as const;
export type AntennaType = (typeof ANTENNA_TYPES)[number];

export const AUTO_TUNE_OPTIONS: readonly { value: AutoTuneValue; label: string }[] = [
  { value: 137, label: 'Enabled 137' },
  { value: 433, label: 'Enabled 433' },
  { value: 900, label: 'Enabled 868-915' },
  { value: 2400, label: 'Enabled 2.4G' },
  { value: 0, label: 'Disabled' },
];
/** FSK data shaping: the `ook` value of the modem JSON (255 would mean OOK, not offered in the form). */
export const DATA_SHAPING_OPTIONS: readonly { label: string; ook: number }[] = [
  { label: 'Disabled', ook: 0 },
  { label: '0.3', ook: 1 },
  { label: '0.5', ook: 2 },
  { label: '0.7', ook: 3 },
  { label: '1.0', ook: 4 },
];
export const CRC_OPTIONS: readonly { label: string; value: boolean }[] = [
  { label: 'Enable', value: true },
  { label: 'Disable', value: false },
];
export const FLDRO_OPTIONS: readonly { label: string; value: 0 | 1 | 2 }[] = [
  { label: 'Enable', value: 1 },
  { label: 'Disable', value: 0 },
  { label: 'Auto', value: 2 },
];

/** Inclusive ranges of the operate form's modem fields (SPEC.md section 5). */
export const MODEM_RANGES = {
  norad: { min: 1000, max: 9_999_999 },
  sf: { min: 7, max: 12 },
  bwKHz: { min: 125, max: 500, step: 125 },
  cr: { min: 5, max: 8 },
  sw: { min: 0, max: 65_535 },
  pl: { min: 4, max: 12 },
  cl: { min: 0, max: 250 },
  gain: { min: 0, max: 30 },
  pwr: { min: -17, max: 30 },
  br: { min: 0, max: 255 },
  fd: { min: 0, max: 255 },
} as const;

// Station status
export type WifiSignalLabel = 'Very Good' | 'Good' | 'Low' | 'Very low' | 'None';
export function wifiSignalLabel(rssiDbm?: number | null): WifiSignalLabel {
  if (typeof rssiDbm !== 'number' || Number.isNaN(rssiDbm)) return 'None';
  if (rssiDbm >= -60) return 'Very Good';
  if (rssiDbm >= -70) return 'Good';
  if (rssiDbm >= -80) return 'Low';
  return 'Very low';
}

export const LOCATION_PICKER_DEFAULT = { lat: 40.429, lng: -4.249, zoom: 3 } as const;
export const LOCATION_DECIMALS = 3;

// Server
/** A station with no MQTT traffic for this long is shown offline. */
export const STATION_OFFLINE_AFTER_MS = 5 * 60 * 1000;
/** Receptions of the same frame by several stations within this window merge into one packet. */
export const PACKET_MERGE_WINDOW_MS = 60_000;
/** The firmware cannot handle larger MQTT packets; commands stay below. */
export const MQTT_MAX_PACKET_BYTES = 1000;
export const LOGIN_TOKEN_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const OTP_TTL_MS = 30 * 60 * 1000;

/** Browser localStorage keys. */
export const STORAGE_KEYS = {
  userId: 'userId',
  sessionToken: 'sessionToken',
  soundMode: 'soundMode',
  satelliteSelection: 'satelliteSelection',
  loginWaitExpiry: 'loginWaitExpiry',
  emailCooldownExpiry: 'emailCooldownExpiry',
} as const;
