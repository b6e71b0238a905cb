// Station MQTT protocol (PROTOCOL.md): topics, payloads and commands. Field names are firmware facts.
// Payload objects are loose (newer firmware adds keys) but the known keys are type-checked.
import { z } from 'zod';
import { isBase64 } from './binary';
import { FILTER_MAX_ITEMS, LatLngTupleSchema, ModemConfSchema } from './entities';

export const MQTT_TOPIC_ROOT = 'tinygs';
export const TOPIC_KINDS = ['tele', 'cmnd', 'stat'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

/** Station -> server topic names under tele/. */
export const TELE_TOPICS = {
  welcome: 'welcome',
  ping: 'ping',
  rx: 'rx',
  status: 'status',
} as const;

export const COMMANDS = [
  'begine',
  'beginp',
  'freq',
  'sat',
  'tx',
  'status',
  'log',
  'reset',
  'update',
  'weblogin',
  'filter',
] as const;
export type Command = (typeof COMMANDS)[number];

// MQTT wildcards and separators must not appear in a topic level.
const TOPIC_LEVEL = /^[^/+#]+$/;

/** `tinygs/{userId}/{station}/{kind}/{name}` */
export function stationTopic(
  userId: string | number,
  station: string,
  kind: TopicKind,
  name: string,
): string {
  return `${MQTT_TOPIC_ROOT}/${String(userId)}/${station}/${kind}/${name}`;
}

/** `tinygs/global/cmnd/{command}`: sent to every station. */
export function globalCommandTopic(command: Command): string {
  return `${MQTT_TOPIC_ROOT}/global/cmnd/${command}`;
}

/** Topic patterns a station subscribes to after connecting. */
export function stationSubscriptions(userId: string | number, station: string): string[] {
  return [`${MQTT_TOPIC_ROOT}/global/#`, `${MQTT_TOPIC_ROOT}/${String(userId)}/${station}/cmnd/#`];
}

export interface StationTopic {
  userId: string;
  station: string;
  kind: TopicKind;
  name: string;
}

/** Splits a per-station topic; null for global topics and anything else that does not fit. */
export function parseStationTopic(topic: string): StationTopic | null {
  const parts = topic.split('/');
  if (parts.length !== 5) return null;
  const [root, userId, station, kind, name] = parts;
  if (
    root !== MQTT_TOPIC_ROOT ||
    userId === undefined ||
    station === undefined ||
    name === undefined
  )
    return null;
  if (!/^\d+$/.test(userId)) return null;
  if (!TOPIC_LEVEL.test(station) || !TOPIC_LEVEL.test(name)) return null;
  if (kind !== 'tele' && kind !== 'cmnd' && kind !== 'stat') return null;
  return { userId, station, kind, name };
}

/** Last will: published by the broker on `tele/status` when the station drops (QoS 2, not retained). */
export const LAST_WILL_PAYLOAD = '0';
export const LAST_WILL_QOS = 2;
export function lastWillTopic(userId: string | number, station: string): string {
  return stationTopic(userId, station, 'tele', TELE_TOPICS.status);
}

// Lengths are checked before any pattern. A frame is at most 255 bytes (340 base64 characters);
// free-text fields get room far beyond what firmware sends.
export const MQTT_FRAME_BASE64_MAX_CHARS = 1024;
export const MQTT_FIELD_MAX_CHARS = 100;
const MODEM_CONF_TEXT_MAX_CHARS = 4096;
const base64Text = z
  .string()
  .max(MQTT_FRAME_BASE64_MAX_CHARS, { error: 'Frame is too long', abort: true })
  .refine(isBase64, 'Invalid base64 string');
const shortText = z.string().max(MQTT_FIELD_MAX_CHARS);
const numberOrText = z.union([z.number(), shortText]);

export const WelcomePayloadSchema = z.looseObject({
  station_location: LatLngTupleSchema,
  /** hardware allows transmit */
  tx: z.boolean(),
  /** epoch seconds */
  time: z.number().optional(),
  version: z.number(),
  git_version: shortText.optional(),
  /** satellite it is tuned to */
  sat: shortText.optional(),
  /** local IP */
  ip: shortText.optional(),
  /** modem JSON as text */
  modem_conf: z.string().max(MODEM_CONF_TEXT_MAX_CHARS).optional(),
  board: numberOrText.optional(),
  mac: shortText.optional(),
  /** uptime, s */
  seconds: z.number().optional(),
  Vbat: z.number().optional(),
  Mem: z.number().optional(),
  chip: numberOrText.optional(),
  radioChip: numberOrText.optional(),
  /** low power mode */
  lp: z.boolean().optional(),
});
export type WelcomePayload = z.infer<typeof WelcomePayloadSchema>;

export const PingPayloadSchema = z.looseObject({
  Vbat: z.number().optional(),
  Mem: z.number().optional(),
  MinMem: z.number().optional(),
  MaxBlk: z.number().optional(),
  /** Wi-Fi dBm */
  RSSI: z.number().optional(),
  /** radio error code, 0 = ready */
  radio: z.number().int().optional(),
  InstRSSI: z.number().optional(),
});
export type PingPayload = z.infer<typeof PingPayloadSchema>;

const rxCommon = {
  station_location: LatLngTupleSchema,
  /** MHz, nominal */
  frequency: z.number(),
  /** Hz */
  frequency_offset: z.number(),
  satellite: shortText,
  NORAD: z.number().int(),
  /** dBm */
  rssi: z.number(),
  /** dB */
  snr: z.number(),
  /** Hz */
  frequency_error: z.number(),
  /** epoch s */
  unix_GS_time: z.number(),
  /** microseconds since epoch at reception */
  usec_time: z.number(),
  crc_error: z.boolean(),
  /** base64 of the frame; base64("Error_CRC") for a CRC error frame */
  data: base64Text,
  // Absent in firmware that predates it.
  noisy: z.boolean().optional(),
  /** Hz, only when non-zero */
  f_doppler: z.number().optional(),
};
export const LoRaRxPayloadSchema = z.looseObject({
  mode: z.literal('LoRa'),
  ...rxCommon,
  sf: z.number().int(),
  cr: z.number().int(),
  /** kHz */
  bw: z.number(),
  iIQ: z.boolean().optional(),
});
export const FskRxPayloadSchema = z.looseObject({
  mode: z.literal('FSK'),
  ...rxCommon,
  /** kbps */
  bitrate: z.number(),
  /** kHz */
  freqdev: z.number(),
  /** kHz */
  rxBw: z.number(),
  data_raw: base64Text.optional(),
});
export const RxPayloadSchema = z.discriminatedUnion('mode', [
  LoRaRxPayloadSchema,
  FskRxPayloadSchema,
]);
export type RxPayload = z.infer<typeof RxPayloadSchema>;
export type LoRaRxPayload = z.infer<typeof LoRaRxPayloadSchema>;
export type FskRxPayload = z.infer<typeof FskRxPayloadSchema>;

/** `stat/status`: reply to `cmnd/status`. */
export const StatusPayloadSchema = z.looseObject({
  station_location: LatLngTupleSchema.optional(),
  version: z.number().optional(),
  board: numberOrText.optional(),
  tx: z.boolean().optional(),
  mode: shortText.optional(),
  frequency: z.number().optional(),
  satellite: shortText.optional(),
  NORAD: z.number().optional(),
  rssi: z.number().optional(),
  snr: z.number().optional(),
  frequency_error: z.number().optional(),
  crc_error: z.boolean().optional(),
  unix_GS_time: z.number().optional(),
  usec_time: z.number().optional(),
});
export type StatusPayload = z.infer<typeof StatusPayloadSchema>;

// Command payloads (server -> station)
/** `begine` / `beginp`: modem JSON. */
export const BeginCommandSchema = ModemConfSchema;
/** `sat`: ["Name", NORAD] */
export const SatCommandSchema = z.tuple([shortText.min(1), z.number().int()]);
export type SatCommand = z.infer<typeof SatCommandSchema>;
/** `freq`: MHz */
export const FreqCommandSchema = z.number().positive();
/** `status`: a digit */
export const StatusCommandSchema = z.number().int().min(0).max(9);
/** `filter`: [len, pos, b1, b2, ...] */
export const FilterCommandSchema = z
  .array(z.number().int().min(0).max(255))
  .min(2)
  .max(FILTER_MAX_ITEMS)
  .refine(
    ([len, , ...bytes]) => len === bytes.length,
    'filter length must equal the number of bytes',
  );
export type FilterCommand = z.infer<typeof FilterCommandSchema>;

/** `stat/{command}` ack: 2 bytes, little-endian uint16 (ESP32 byte order); 0 = OK. Null if malformed. */
export function parseCommandAck(bytes: Uint8Array): number | null {
  if (bytes.length !== 2) return null;
  return (bytes[0] ?? 0) | ((bytes[1] ?? 0) << 8);
}
