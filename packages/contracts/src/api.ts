// Request and response schemas of SPEC.md section 7, plus the firmware's GET /credentials (PROTOCOL.md).
// Query strings arrive as text, so numeric query fields coerce.
import { z } from 'zod';
import { base64ToBytes, isBase64 } from './binary';
import { PACKETS_V2_MAX_LIMIT, TX_MAX_BYTES } from './constants';
import {
  MqttCredentialsSchema,
  NetworkStatisticsSchema,
  NewsletterFrequencySchema,
  PacketDetailSchema,
  PacketSchema,
  SatelliteDetailSchema,
  SatelliteSchema,
  SatelliteStatusSchema,
  StationFullSchema,
  StationListItemSchema,
  StationStatisticsSchema,
  UserSchema,
  WorldmapSatelliteSchema,
} from './entities';
import { StationIdSchema, UserIdSchema } from './ids';
import { OfflineAlertsUpdateSchema } from './offline-alerts';
import {
  BINARY_ERRORS,
  CAPTCHA_ERRORS,
  LoginEmailSchema,
  PreferencesEmailSchema,
  TermsAcceptedSchema,
  TX_EMPTY_ERROR,
} from './rules';

/** Login and session tokens are 43 base64url characters; anything far longer is not one. */
export const TOKEN_MAX_CHARS = 200;
/** The ALTCHA solution: base64 of a small JSON object. */
export const CAPTCHA_MAX_CHARS = 4096;
/** Satellite names in paths, queries and bodies. */
export const SATELLITE_NAME_MAX_CHARS = 100;

export const ErrorBodySchema = z.object({
  error: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Node lower-cases header names; other headers pass through. */
export const AuthHeadersSchema = z.looseObject({
  userid: UserIdSchema,
  sessiontoken: z.string().min(1, 'Missing Auth').max(TOKEN_MAX_CHARS),
});
export type AuthHeaders = z.infer<typeof AuthHeadersSchema>;

export const MessageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

// POST /weblogin/
export const WebLoginRequestSchema = z.object({
  email: LoginEmailSchema,
  /** bot-check token */
  captcha: z
    .string({ error: CAPTCHA_ERRORS.error })
    .min(1, CAPTCHA_ERRORS.error)
    .max(CAPTCHA_MAX_CHARS, CAPTCHA_ERRORS.error),
});
export type WebLoginRequest = z.infer<typeof WebLoginRequestSchema>;

// POST /v1/login
export const LoginRequestSchema = z.object({
  loginToken: z
    .string()
    .min(1, 'loginToken is required')
    .max(TOKEN_MAX_CHARS, 'loginToken is too long' /* ours */),
  userId: UserIdSchema,
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
export const LoginResponseSchema = z.object({ sessionToken: z.string() });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

// Path parameters
export const StationIdParamsSchema = z.object({ id: StationIdSchema });
export const PictureParamsSchema = z.object({
  id: StationIdSchema,
  pictureId: z.string().min(1).max(SATELLITE_NAME_MAX_CHARS),
});
export const PacketIdParamsSchema = z.object({
  id: z.string().min(1).max(SATELLITE_NAME_MAX_CHARS),
});
export const SatelliteNameParamsSchema = z.object({
  name: z.string().min(1).max(SATELLITE_NAME_MAX_CHARS),
});
export const UserIdParamsSchema = z.object({ userId: UserIdSchema });
/** ?userId= of GET /v1/user, GET /v1/mqttcred, POST /v1/otp */
export const UserIdQuerySchema = z.object({ userId: UserIdSchema });

// GET /v1/statistics, /v1/satellitesWorldmap, /v1/stations
export const StatisticsResponseSchema = NetworkStatisticsSchema;
export const WorldmapResponseSchema = z.array(WorldmapSatelliteSchema);
export const StationsQuerySchema = z.object({ userId: UserIdSchema.optional() });
export const StationsResponseSchema = z.array(StationListItemSchema);

// GET /v1/satellites, /v1/satellitesIna, /v1/satellite/{name}
export const SatellitesQuerySchema = z.object({ status: SatelliteStatusSchema.optional() });
export type SatellitesQuery = z.infer<typeof SatellitesQuerySchema>;
export const SatellitesResponseSchema = z.array(SatelliteSchema);
export const SatelliteDetailResponseSchema = SatelliteDetailSchema;

/** Templates keyed by satellite name. */
export const TemplatesSchema = z.record(z.string(), z.string());

const BEFORE_ERROR = 'before must be a positive whole number (epoch milliseconds)';
/** A paging cursor: the serverTime of the last packet already loaded (exclusive). */
const BeforeSchema = z.coerce
  .number({ error: BEFORE_ERROR })
  .int(BEFORE_ERROR)
  .positive(BEFORE_ERROR)
  .max(Number.MAX_SAFE_INTEGER, BEFORE_ERROR);

/** A page size from 1 to `max`, from the query text. */
function pageLimitSchema(max: number) {
  const error = `limit must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error }).int(error).min(1, error).max(max, error);
}

// GET /v2/packets
export const PacketsV2QuerySchema = z.object({
  satellite: z.string().min(1).max(SATELLITE_NAME_MAX_CHARS).optional(),
  /** community tools ask for one station's recent packets this way */
  station: StationIdSchema.optional(),
  /** with station: only packets the station heard before this serverTime (epoch ms) */
  before: BeforeSchema.optional(),
  /** with station: page size, PACKETS_PAGE_SIZE when absent */
  limit: pageLimitSchema(PACKETS_V2_MAX_LIMIT).optional(),
});
export type PacketsV2Query = z.infer<typeof PacketsV2QuerySchema>;
export const PacketsV2ResponseSchema = z.object({
  packets: z.array(PacketSchema),
  templates: TemplatesSchema,
});
export type PacketsV2Response = z.infer<typeof PacketsV2ResponseSchema>;

// GET /v2/packetsIna
export const PacketsInaQuerySchema = z.object({
  satellite: z.string().min(1, 'satellite is required').max(SATELLITE_NAME_MAX_CHARS),
});
export type PacketsInaQuery = z.infer<typeof PacketsInaQuerySchema>;
export const PacketsInaResponseSchema = z.object({
  /** newest first, at most INACTIVE_PACKETS_SHOWN */
  latest: z.array(PacketSchema),
  /** the first INACTIVE_PACKETS_SHOWN packets, oldest first; present only when there are more */
  first: z.array(PacketSchema).optional(),
  templates: TemplatesSchema,
});
export type PacketsInaResponse = z.infer<typeof PacketsInaResponseSchema>;

// GET /v1/packet/{id}, /v1/packetIna/{id}
export const PacketDetailResponseSchema = PacketDetailSchema;

// GET /v1/packets?station=&before=
export const StationPacketsQuerySchema = z.object({
  station: StationIdSchema,
  /** serverTime of the last loaded packet; only older packets are returned */
  before: BeforeSchema.optional(),
});
export type StationPacketsQuery = z.infer<typeof StationPacketsQuerySchema>;
/** newest first, at most PACKETS_PAGE_SIZE */
export const StationPacketsResponseSchema = z.array(PacketSchema);

// GET /v1/station/{id}, /v1/station/{id}/statistics
export const StationResponseSchema = StationFullSchema;
export const StationStatisticsResponseSchema = StationStatisticsSchema;

// GET /v1/pictures: the newest approved station pictures, for the Home carousel.
export const RECENT_PICTURES_MAX = 24;
export const RecentPicturesQuerySchema = z.object({
  limit: pageLimitSchema(RECENT_PICTURES_MAX).default(12),
});
export const StationPhotoSchema = z.object({
  stationId: StationIdSchema,
  /** the picture, 1080 px wide */
  src: z.string(),
  /** its 150 px wide thumbnail */
  thumb: z.string(),
  /** upload time, epoch ms */
  createdAt: z.number().int(),
});
export type StationPhoto = z.infer<typeof StationPhotoSchema>;
/** newest first */
export const RecentPicturesResponseSchema = z.array(StationPhotoSchema);

/** POST /v1/station/{id}/image answers with the picture's short id as text. */
export const PictureUploadResponseSchema = z.string().min(1);

// POST /v2/station/{id}/tx
export const TX_TOO_LONG_ERROR = 'Payload must be at most 255 bytes';
export const TxBodySchema = z.object({
  tx: z
    .string({ error: TX_EMPTY_ERROR })
    // 255 bytes are 340 base64 characters: longer text is refused before it is decoded.
    .max(Math.ceil(TX_MAX_BYTES / 3) * 4, { error: TX_TOO_LONG_ERROR, abort: true })
    .refine(isBase64, { error: BINARY_ERRORS.base64, abort: true })
    .refine((text) => base64ToBytes(text).length >= 1, { error: TX_EMPTY_ERROR, abort: true })
    .refine((text) => base64ToBytes(text).length <= TX_MAX_BYTES, TX_TOO_LONG_ERROR),
});
export type TxBody = z.infer<typeof TxBodySchema>;

// GET /v1/user, PUT /v1/user/{userId}
export const UserResponseSchema = UserSchema;
export const UserUpdateBodySchema = z.object({
  email: PreferencesEmailSchema,
  acceptedTerms: TermsAcceptedSchema,
  newsletterFrequency: NewsletterFrequencySchema,
  /** absent: left as it is */
  offlineAlerts: OfflineAlertsUpdateSchema.optional(),
});
export type UserUpdateBody = z.infer<typeof UserUpdateBodySchema>;

// GET /v1/mqttcred
export const MqttCredentialsResponseSchema = MqttCredentialsSchema;

// GET /v1/station_created
export const StationCreatedResponseSchema = z.object({
  status: z.enum(['pending', 'success', 'error']),
  text: z.string(),
});
export type StationCreatedResponse = z.infer<typeof StationCreatedResponseSchema>;

// GET /credentials?otp= (firmware, PROTOCOL.md): 404 until the owner submits the code.
export const FirmwareCredentialsQuerySchema = z.object({
  otp: z
    .string()
    .max(6, { error: 'OTP must be a 6-digit number', abort: true })
    .regex(/^\d{6}$/, 'OTP must be a 6-digit number'),
});
export const FirmwareCredentialsResponseSchema = z.object({
  mqtt: z.object({
    user: z.string(),
    pass: z.string(),
    server: z.string(),
    /** text, as the firmware expects */
    port: z.string(),
  }),
  config: z.object({
    stationName: z.string(),
    adminPw: z.string(),
    /** text, as the firmware expects */
    latitude: z.string(),
    longitude: z.string(),
    /** POSIX time-zone text */
    tz: z.string(),
  }),
});
export type FirmwareCredentialsResponse = z.infer<typeof FirmwareCredentialsResponseSchema>;

// Packet export (server addition): one satellite's or station's packets in a time range.
const EPOCH_MS_ERROR = 'must be a positive whole number (epoch milliseconds)';
export const epochMsQuery = (name: string) =>
  z.coerce
    .number({ error: `${name} ${EPOCH_MS_ERROR}` })
    .int(`${name} ${EPOCH_MS_ERROR}`)
    .positive(`${name} ${EPOCH_MS_ERROR}`)
    .max(Number.MAX_SAFE_INTEGER, `${name} ${EPOCH_MS_ERROR}`);
export const EXPORT_MAX_ROWS = 10_000;
/** from..to spans at most this; missing ends are filled so that the range is this long. */
export const EXPORT_MAX_RANGE_DAYS = 31;
export const EXPORT_MAX_RANGE_MS = EXPORT_MAX_RANGE_DAYS * 24 * 3600 * 1000;
export const ExportQuerySchema = z
  .object({
    satellite: z.string().min(1).max(SATELLITE_NAME_MAX_CHARS).optional(),
    station: StationIdSchema.optional(),
    from: epochMsQuery('from').optional(),
    to: epochMsQuery('to').optional(),
    format: z.enum(['json', 'csv']).default('json'),
    limit: z.coerce.number().int().min(1).max(EXPORT_MAX_ROWS).default(1000),
  })
  .refine((q) => q.satellite !== undefined || q.station !== undefined, {
    message: 'Give a satellite or a station',
    path: ['satellite'],
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'from must not be after to',
    path: ['from'],
  })
  .refine(
    (q) => q.from === undefined || q.to === undefined || q.to - q.from <= EXPORT_MAX_RANGE_MS,
    { message: `from and to must be at most ${EXPORT_MAX_RANGE_DAYS} days apart`, path: ['to'] },
  );
export type ExportQuery = z.infer<typeof ExportQuerySchema>;

// Search (server addition): satellites and stations by name.
export const SearchQuerySchema = z.object({
  q: z
    .string()
    .max(100, { error: 'Search text must be at most 100 characters', abort: true })
    .trim()
    .min(1, 'Search text is required'),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;
export const SearchResponseSchema = z.object({
  satellites: z.array(
    z.object({ name: z.string(), displayName: z.string(), status: SatelliteStatusSchema }),
  ),
  stations: z.array(z.object({ id: StationIdSchema, name: z.string(), userId: UserIdSchema })),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
