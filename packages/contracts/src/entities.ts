// Entities of SPEC.md section 3 with the wire names of the live API (PROTOCOL.md). Times are epoch ms.
import { z } from 'zod';
import { MODEM_MODES, SATELLITE_STATUSES } from './constants';
import { StationIdSchema, StationNameSchema, UserIdSchema } from './ids';
import { OfflineAlertsSchema } from './offline-alerts';
import {
  AdminPasswordSchema,
  LATITUDE_RANGE_ERROR,
  LONGITUDE_RANGE_ERROR,
  TimeZoneSchema,
  type NewStationForm,
} from './rules';

export const SatelliteStatusSchema = z.enum(SATELLITE_STATUSES);
export type SatelliteStatus = z.infer<typeof SatelliteStatusSchema>;

export const ModemModeSchema = z.enum(MODEM_MODES);

export const BandSchema = z.union([
  z.literal(137),
  z.literal(433),
  z.literal(900),
  z.literal(2400),
]);
/** A band, or 0 = auto-tune disabled. */
export const AutoTuneSchema = z.union([BandSchema, z.literal(0)]);

/** [lat, lng] in degrees, as the API sends locations. */
export const LatLngTupleSchema = z.tuple([z.number(), z.number()]);

// Modem JSON (PROTOCOL.md). Stored satellite configurations come from satellite teams and may use
// values outside the operate form's ranges (e.g. bw 62.5 kHz), so only types are checked here;
// the operate body (api.ts) checks MODEM_RANGES.
/** `filter`: length, position and up to 64 bytes. */
export const FILTER_MAX_ITEMS = 66;
/** base64 of the compact TLE the firmware reads (well under 200 characters). */
export const TLE_MAX_CHARS = 200;

const modemCommon = {
  freq: z.number().positive(),
  sat: z.string().max(100).optional(),
  NORAD: z.number().int().optional(),
  /** kHz */
  bw: z.number().optional(),
  /** dBm */
  pwr: z.number().optional(),
  /** preamble length */
  pl: z.number().int().optional(),
  filter: z.array(z.number().int()).max(FILTER_MAX_ITEMS).optional(),
  /** base64 compact TLE: the station then corrects Doppler itself */
  tle: z.string().max(TLE_MAX_CHARS).optional(),
};
export const LoRaModemConfSchema = z.looseObject({
  mode: z.literal('LoRa'),
  ...modemCommon,
  sf: z.number().int().optional(),
  cr: z.number().int().optional(),
  sw: z.number().int().optional(),
  /** 0 = automatic gain */
  gain: z.number().int().optional(),
  crc: z.boolean().optional(),
  /** 0 off, 1 on, 2 auto */
  fldro: z.number().int().optional(),
  /** current limit, mA */
  cl: z.number().optional(),
  iIQ: z.boolean().optional(),
  /** > 0: implicit header with this length */
  len: z.number().int().optional(),
});
export const FskModemConfSchema = z.looseObject({
  mode: z.literal('FSK'),
  ...modemCommon,
  /** kbps */
  br: z.number().optional(),
  /** kHz */
  fd: z.number().optional(),
  /** data shaping 0-4, 255 = OOK */
  ook: z.number().int().optional(),
  /** sync word bytes, at most 8 */
  fsw: z.array(z.number().int().min(0).max(255)).max(8).optional(),
  len: z.number().int().optional(),
});
export const ModemConfSchema = z.discriminatedUnion('mode', [
  LoRaModemConfSchema,
  FskModemConfSchema,
]);
export type ModemConf = z.infer<typeof ModemConfSchema>;
export type LoRaModemConf = z.infer<typeof LoRaModemConfSchema>;
export type FskModemConf = z.infer<typeof FskModemConfSchema>;

/** A satellite's configuration is a modem JSON object; the first in the list is the default. */
export const SatelliteConfigurationSchema = ModemConfSchema;
export type SatelliteConfiguration = ModemConf;

export const SatelliteSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  description: z.string().default(''),
  /** HTML */
  longDescription: z.string().default(''),
  status: SatelliteStatusSchema,
  images: z.array(z.string()).default([]),
  configurations: z.array(SatelliteConfigurationSchema).default([]),
  confirmedPackets: z.number().int().nonnegative(),
  frames: z.number().int().nonnegative(),
  lastPacketTime: z.number().nullable(),
  launchDate: z.number().nullable(),
  /** null when no TLE is known */
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** epoch of the element set held (ms); null when none. Not sent by the live network. */
  tleEpoch: z.number().nullable().optional(),
  /** where that set came from: a source's host, `file:NAME`, seed, import, satnogs-db */
  tleSource: z.string().nullable().optional(),
  /** the set is older than TLE_STALE_AFTER_MS */
  tleStale: z.boolean().optional(),
});
export type Satellite = z.infer<typeof SatelliteSchema>;

/** Decoded frame: arbitrary JSON from the satellite's decoder, usually { header, payload }. */
export const ParsedFrameSchema = z.looseObject({
  header: z.record(z.string(), z.unknown()).optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type ParsedFrame = z.infer<typeof ParsedFrameSchema>;

export const SatelliteDetailSchema = SatelliteSchema.extend({
  /**
   * the element set as imported: its own title line (may differ from `name`: NORBY for Norbi),
   * line 1, line 2; null when no TLE is known
   */
  tle: z.tuple([z.string(), z.string(), z.string()]).nullable(),
  lastTelemetry: ParsedFrameSchema.nullable(),
  webTemplate: z.string().nullable(),
  totals: z.object({
    confirmedPackets: z.number().int().nonnegative(),
    /** receptions summed over all packets (one packet heard by 3 stations counts 3) */
    stationReceptions: z.number().int().nonnegative(),
  }),
});
export type SatelliteDetail = z.infer<typeof SatelliteDetailSchema>;

export const WorldmapSatelliteSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** km */
  alt: z.number().optional(),
  tleMissing: z.boolean(),
});
export type WorldmapSatellite = z.infer<typeof WorldmapSatelliteSchema>;

/** Sub-satellite point; alt in km. */
export const SatPosSchema = z.looseObject({ lat: z.number(), lng: z.number(), alt: z.number() });
export type SatPos = z.infer<typeof SatPosSchema>;

export const ReceptionParamsSchema = z.looseObject({
  rssi: z.number(),
  snr: z.number(),
  /** Hz */
  frequency_error: z.number(),
});

export const StationInPacketSchema = z.looseObject({
  name: z.string(),
  userId: UserIdSchema,
  location: LatLngTupleSchema,
  /** km; null when the satellite position is unknown */
  distance: z.number().nullable(),
  /** degrees */
  elevation: z.number().nullable(),
  azimuth: z.number().nullable(),
  /** microseconds since epoch at reception */
  usec_time: z.number(),
  /** Hz, computed from the orbit */
  doppler: z.number().nullable(),
  /** Hz, reported by the station when it corrected Doppler itself */
  f_doppler: z.number().optional(),
  /** Hz */
  frequency_offset: z.number(),
  crc_error: z.boolean(),
  receptionParams: ReceptionParamsSchema,
});
export type StationInPacket = z.infer<typeof StationInPacketSchema>;

export const PacketSchema = z.looseObject({
  id: z.string(),
  /** base64 of the frame bytes */
  raw: z.string(),
  serverTime: z.number().int(),
  mode: ModemModeSchema,
  /** MHz */
  freq: z.number(),
  sf: z.number().nullable(),
  cr: z.number().nullable(),
  /** kHz */
  bw: z.number().nullable(),
  /** FSK only, null for LoRa */
  bitrate: z.number().nullable(),
  freqDev: z.number().nullable(),
  rxBw: z.number().nullable(),
  satellite: z.string(),
  norad: z.number().int(),
  satDisplayName: z.string(),
  // Key absent for CRC-error packets (community tools test its presence); null when unrecognised.
  parsed: ParsedFrameSchema.nullable().optional(),
  satPos: SatPosSchema,
  stationNumber: z.number().int().nonnegative(),
  /**
   * Present (true) only when the frame failed its format's checks (CRC, length, magic, ranges):
   * `parsed` is then the envelope `{payload: {tinygsSatellite, tinygsTxPower}, tinygsSatellite,
   * telemetry: false}`, with nothing decoded.
   */
  unverified: z.literal(true).optional(),
});
export type Packet = z.infer<typeof PacketSchema>;

export const PacketDetailSchema = PacketSchema.extend({
  stations: z.array(StationInPacketSchema),
  sunLit: z.boolean(),
  /** degrees */
  eclipseDepth: z.number(),
  /** km */
  footPrint: z.number(),
  template: z.string().nullable(),
  /** mW */
  txPower: z.number().nullable().optional(),
  name: z.string().optional(),
});
export type PacketDetail = z.infer<typeof PacketDetailSchema>;

export const StationStatusSchema = z.union([z.literal(0), z.literal(1)]);

export const StationListItemSchema = z.object({
  name: z.string(),
  userId: UserIdSchema,
  location: LatLngTupleSchema,
  /** 0 offline, 1 online */
  status: StationStatusSchema,
  lastSeen: z.number().nullable(),
  lastPacketTime: z.number().nullable(),
  version: z.number().nullable(),
  satellite: z.string().nullable(),
  satDisplayName: z.string().nullable().optional(),
  autoTune: BandSchema.nullable(),
});
export type StationListItem = z.infer<typeof StationListItemSchema>;

export const PictureSchema = z.object({
  /** 0 pending validation, 1 approved, negative = skipped (hidden) */
  status: z.number().int(),
  /** bytes */
  size: z.number().int().nonnegative(),
  origName: z.string(),
  /** MIME type */
  type: z.string(),
  shortId: z.string(),
  src: z.string(),
});
export type Picture = z.infer<typeof PictureSchema>;

/** Fields every visitor sees. */
export const StationPublicSchema = z.object({
  id: StationIdSchema,
  name: z.string(),
  userId: UserIdSchema,
  status: StationStatusSchema,
  satellite: z.string().nullable(),
  satDisplayName: z.string().nullable().optional(),
  version: z.number().nullable(),
  lastPacketTime: z.number().nullable(),
  lastSeen: z.number().nullable(),
  creationDate: z.number(),
  autoTune: AutoTuneSchema.nullable(),
  test: z.boolean(),
  description: z.string().default(''),
  antenna: z.string(),
  /** [low, high] MHz */
  antennaBand: z.tuple([z.number(), z.number()]),
  location: LatLngTupleSchema,
  /** m */
  elevation: z.number(),
  /** km */
  recordDistance: z.number(),
  telemetryPackets: z.number().int().nonnegative(),
  confirmedPackets: z.number().int().nonnegative(),
  pictures: z.array(PictureSchema).default([]),
});
export type StationPublic = z.infer<typeof StationPublicSchema>;

/** Fields only the owner receives (the server omits them for everyone else). */
export const StationOwnerFieldsSchema = z.object({
  local_ip: z.string().nullable(),
  /** dBm */
  wifiRssi: z.number().nullable(),
  /** 0 = ready, otherwise a radio error code */
  radioStatus: z.number().int().nullable(),
  autoUpdate: z.boolean(),
  beta: z.boolean(),
  /** transmission allowed by the hardware switch */
  tx: z.boolean(),
  /** modem JSON as text */
  modem_conf: z.string(),
  /** the owner keeps this station's frames from SatNOGS DB */
  satnogsOptOut: z.boolean(),
});
export type StationOwnerFields = z.infer<typeof StationOwnerFieldsSchema>;

/** GET /v1/station/{id}: public fields, plus the owner fields when the caller owns the station. */
export const StationFullSchema = StationPublicSchema.extend(
  StationOwnerFieldsSchema.partial().shape,
);
export type StationFull = z.infer<typeof StationFullSchema>;
/** What the owner receives: every field present. */
export const StationOwnerViewSchema = StationPublicSchema.extend(StationOwnerFieldsSchema.shape);
export type StationOwnerView = z.infer<typeof StationOwnerViewSchema>;

export const NetworkStatisticsSchema = z.object({
  members: z.number().int().nonnegative(),
  stations: z.number().int().nonnegative(),
  packets: z.number().int().nonnegative(),
});
export type NetworkStatistics = z.infer<typeof NetworkStatisticsSchema>;

export const StationStatisticsDaySchema = z.looseObject({
  /** UTC day, YYYY-MM-DD */
  day: z.string(),
  frames: z.array(
    z.looseObject({ satellite: z.string(), satPos: SatPosSchema.partial({ alt: true }) }),
  ),
});
export const StationStatisticsSchema = z.array(StationStatisticsDaySchema);
export type StationStatistics = z.infer<typeof StationStatisticsSchema>;

export const NewsletterFrequencySchema = z.enum(['daily', 'weekly', 'none']);
export const UserSchema = z.object({
  /** the login address */
  email: z.string(),
  emailVal: z.boolean(),
  acceptedTerms: z.boolean(),
  newsletterFrequency: NewsletterFrequencySchema,
  /** a new address saved but not confirmed yet: it becomes `email` once the link mailed to it is opened */
  pendingEmail: z.string().optional(),
  /** offline alerts of the user's stations (server addition) */
  offlineAlerts: OfflineAlertsSchema.optional(),
});
export type User = z.infer<typeof UserSchema>;

export const MqttCredentialsSchema = z.object({ user: z.string(), pass: z.string() });
export type MqttCredentials = z.infer<typeof MqttCredentialsSchema>;

/** POST /v1/otp body: what the new-station form becomes on the wire. */
export const CreationPayloadSchema = z.object({
  /** the 6 digits as a number (leading zeros are lost, as the firmware's code is numeric) */
  otp: z.number().int().min(0).max(999_999, 'OTP must be a 6-digit number'),
  station_name: StationNameSchema,
  location: z.tuple([
    z
      .number({ error: 'Must be a number' })
      .min(-90, LATITUDE_RANGE_ERROR)
      .max(90, LATITUDE_RANGE_ERROR),
    z
      .number({ error: 'Must be a number' })
      .min(-180, LONGITUDE_RANGE_ERROR)
      .max(180, LONGITUDE_RANGE_ERROR),
  ]),
  admin_pw: AdminPasswordSchema,
  /** POSIX time-zone text, e.g. CET-1CEST,M3.5.0,M10.5.0/3 */
  tz: TimeZoneSchema,
});
export type CreationPayload = z.infer<typeof CreationPayloadSchema>;

export function toCreationPayload(form: NewStationForm): CreationPayload {
  return {
    otp: Number(form.otp),
    station_name: form.name,
    location: [form.locationLat, form.locationLon],
    admin_pw: form.adminPassword,
    tz: form.timeZone,
  };
}
