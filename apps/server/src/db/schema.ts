// Table types for Kysely. Columns are snake_case in SQL and camelCase here (CamelCasePlugin).
// Conventions on both dialects: times are epoch milliseconds (bigint, read as number), booleans are
// integers 0/1, JSON is stored as text. Migrations in ./migrations create exactly these tables.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: string; // numeric text: the chat platform's user id or one the admin CLI allotted
  email: string | null; // lower-case; the login address
  emailVal: number;
  pendingEmail: string | null; // lower-case; becomes `email` once the link mailed to it is opened
  acceptedTerms: number;
  newsletterFrequency: string; // daily | weekly | none
  mqttPasswordEnc: string; // AES-256-GCM with the server secret; the owner reads it back
  telegramChatId: string | null;
  displayName: string | null;
  isAdmin: number;
  createdAt: number;
}

export interface SessionsTable {
  tokenHash: string; // sha256 of the session token; the token itself is never stored
  userId: string;
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number;
}

export interface LoginTokensTable {
  tokenHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface EmailValidationsTable {
  tokenHash: string;
  userId: string;
  email: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  keepSessionHash: string | null; // the session that asked for the change survives its confirmation
}

export interface StationsTable {
  id: string; // {name}@{userId}
  name: string;
  userId: string;
  status: number; // 1 online, 0 offline
  lat: number;
  lng: number;
  elevationM: number | null;
  satellite: string | null;
  version: number | null;
  gitVersion: string | null;
  board: string | null;
  mac: string | null;
  localIp: string | null;
  wifiRssi: number | null;
  radioStatus: number | null;
  tx: number;
  modemConf: string | null; // JSON text as the station sent it
  lastSeen: number | null;
  lastPacketTime: number | null;
  creationDate: number;
  autoTune: number | null; // 137 | 433 | 900 | 2400 | 0 | null
  test: number;
  autoUpdate: number;
  beta: number;
  description: string;
  antenna: string | null;
  antennaBandLowMhz: number;
  antennaBandHighMhz: number;
  recordDistanceKm: number;
  telemetryPackets: number;
  confirmedPackets: number;
  crcErrors: number;
  satnogsOptOut: Generated<number>; // 1: the owner keeps this station's frames from SatNOGS DB
}

export interface StationPicturesTable {
  id: string; // shortId
  stationId: string;
  status: number; // 0 pending, 1 approved, negative skipped/rejected
  size: number;
  origName: string;
  type: string;
  createdAt: number;
}

export interface SatellitesTable {
  name: string;
  displayName: string;
  norad: number | null;
  status: string;
  description: string;
  longDescription: string;
  launchDate: number | null;
  configurations: string; // JSON array of modem configurations; the first is the default
  tle: string | null; // JSON [name, line1, line2]
  tleEpoch: number | null; // epoch of that element set
  tleSource: string | null; // where it came from: seed, import, satnogs-db, a source's host or file
  images: string; // JSON array of URLs
  webTemplate: string;
  decoder: string | null;
  frames: number;
  confirmedPackets: number;
  lastPacketTime: number | null;
  updatedAt: number;
  satnogsForward: Generated<number>; // 1: CRC-passing frames are forwarded to SatNOGS DB (opt-in)
}

export interface PacketsTable {
  id: string; // 24 hex digits: seconds timestamp + random, like the live network's ids
  satellite: string;
  norad: number | null;
  serverTime: number;
  raw: string; // base64
  frameHash: string; // sha256(satellite + bytes): receptions of the same frame merge on it
  mode: string;
  freq: number;
  sf: number | null;
  cr: number | null;
  bw: number | null;
  bitrate: number | null;
  freqDev: number | null;
  rxBw: number | null;
  parsed: string | null; // JSON; null when not decoded
  crcError: number;
  isTest: number;
  satLat: number | null;
  satLng: number | null;
  satAlt: number | null;
  sunLit: number | null;
  eclipseDepth: number | null;
  footPrint: number | null;
  stationNumber: number;
  txPowerMw: number | null;
  historical: number; // imported from another server's API document
  unverified: Generated<number>; // failed its format's checks: `parsed` is the envelope only
}

export interface ReceptionsTable {
  packetId: string;
  stationId: string;
  userId: string;
  serverTime: number;
  lat: number;
  lng: number;
  distance: number | null;
  elevation: number | null;
  azimuth: number | null;
  usecTime: number | null;
  doppler: number | null;
  fDoppler: number | null;
  frequencyOffset: number | null;
  crcError: number;
  rssi: number | null;
  snr: number | null;
  frequencyError: number | null;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface StationDailyStatsTable {
  stationId: string;
  day: string; // YYYY-MM-DD (UTC)
  satellite: string;
  frames: number;
}

export interface PendingCreationsTable {
  id: string;
  otp: string;
  userId: string;
  stationName: string;
  lat: number;
  lng: number;
  adminPwEnc: string;
  tz: string;
  status: string; // pending | delivered | success | error
  text: string;
  createdAt: number;
  expiresAt: number;
  deliveredAt: number | null;
}

export interface StationCredentialsTable {
  id: string;
  userId: string;
  stationName: string; // the broker accepts this password for tinygs/{userId}/{stationName}/ only
  passwordEnc: string; // AES-256-GCM with the server secret, like users.mqttPasswordEnc
  createdAt: number;
}

export interface ApiTokensTable {
  id: string;
  userId: string;
  name: string;
  tokenHash: string; // sha256 of the token; the token itself is shown once and never stored
  prefix: string; // the token's first characters, shown in the owner's list
  createdAt: number;
  lastUsedAt: number | null;
}

export interface ElementSetSourcesTable {
  url: string; // the source as configured, {NORAD} already replaced
  etag: string | null;
  lastModified: string | null;
  catalogueKey: string | null; // hash of the catalogue's NORAD ids when the validators were stored
  checkedAt: number;
  error: string | null; // the last attempt's failure, null after a good one
}

export interface StationStatusEventsTable {
  stationId: string;
  at: number;
  online: number; // 1 came online, 0 went offline
  cause: string; // STATION_STATUS_CAUSES
}

export interface StationUptimeDailyTable {
  stationId: string;
  day: string; // YYYY-MM-DD (UTC)
  onlineMs: number;
  knownMs: number; // the part of the day the state is known (from the first transition on)
  outages: number;
  onlineAtEnd: number; // the state at the end of the day, 0/1
}

/** A reception waiting to be sent to SatNOGS DB (repositories/satnogs-outbox.ts, satnogs/). */
export interface SatnogsOutboxTable {
  packetId: string;
  stationId: string;
  queuedAt: number;
  nextAttemptAt: number;
  attempts: number;
  lastError: string | null; // the last failed attempt, for operators
}

export interface OfflineAlertPreferencesTable {
  userId: string;
  enabled: number;
  delayMinutes: number; // OFFLINE_ALERT_DELAYS_MINUTES
  enabledAt: number; // outages that start before this are not alerted
}

export interface OfflineAlertsTable {
  stationId: string;
  outageAt: number; // the offline transition that began the outage
  userId: string;
  alertedAt: number | null; // null: passed over (the owner's alerts of the day were used up)
  backAt: number | null; // when the station's return was handled
  backSent: number; // 0/1: whether the back note went out
}

export interface OfflineAlertCountsTable {
  userId: string;
  day: string; // YYYY-MM-DD (UTC)
  sent: number;
}

export interface TelemetryFieldsTable {
  satellite: string;
  field: string; // dotted path into the decoded packet, e.g. payload.batteryVolts
  firstAt: number;
  lastAt: number;
  samples: number;
}

export interface TelemetrySamplesTable {
  satellite: string;
  field: string;
  at: number; // the packet's server time
  value: number;
}

export interface TelemetryRollupsTable {
  satellite: string;
  field: string;
  bucket: string; // hour | day (UTC)
  start: number;
  min: number;
  max: number;
  sum: number;
  count: number;
}

/** Leaderboard aggregates (migration 0015), updated by the ingest batch. */
export interface LeaderboardStationDaysTable {
  day: string; // YYYY-MM-DD (UTC)
  stationId: string;
  confirmedPackets: number;
  recordDistanceKm: number | null;
}

export interface LeaderboardStationSatellitesTable {
  stationId: string;
  satellite: string;
  firstHeard: number;
  lastHeard: number;
}

export interface LeaderboardSatelliteDaysTable {
  day: string; // YYYY-MM-DD (UTC)
  satellite: string;
  packets: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  loginTokens: LoginTokensTable;
  emailValidations: EmailValidationsTable;
  stations: StationsTable;
  stationPictures: StationPicturesTable;
  satellites: SatellitesTable;
  packets: PacketsTable;
  receptions: ReceptionsTable;
  counters: CountersTable;
  stationDailyStats: StationDailyStatsTable;
  pendingCreations: PendingCreationsTable;
  stationCredentials: StationCredentialsTable;
  apiTokens: ApiTokensTable;
  elementSetSources: ElementSetSourcesTable;
  stationStatusEvents: StationStatusEventsTable;
  stationUptimeDaily: StationUptimeDailyTable;
  satnogsOutbox: SatnogsOutboxTable;
  offlineAlertPreferences: OfflineAlertPreferencesTable;
  offlineAlerts: OfflineAlertsTable;
  offlineAlertCounts: OfflineAlertCountsTable;
  telemetryFields: TelemetryFieldsTable;
  telemetrySamples: TelemetrySamplesTable;
  telemetryRollups: TelemetryRollupsTable;
  leaderboardStationDays: LeaderboardStationDaysTable;
  leaderboardStationSatellites: LeaderboardStationSatellitesTable;
  leaderboardSatelliteDays: LeaderboardSatelliteDaysTable;
}

export type UserRow = Selectable<UsersTable>;
export type StationRow = Selectable<StationsTable>;
export type NewStation = Insertable<StationsTable>;
export type StationUpdate = Updateable<StationsTable>;
export type SatelliteRow = Selectable<SatellitesTable>;
export type PacketRow = Selectable<PacketsTable>;
export type NewPacket = Insertable<PacketsTable>;
export type ReceptionRow = Selectable<ReceptionsTable>;
export type NewReception = Insertable<ReceptionsTable>;
export type PictureRow = Selectable<StationPicturesTable>;
export type PendingCreationRow = Selectable<PendingCreationsTable>;
