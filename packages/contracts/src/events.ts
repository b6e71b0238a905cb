// Server-sent events of /sse/events (SPEC.md section 7).
import { z } from 'zod';
import { SatPosSchema, StationListItemSchema } from './entities';
import { StationIdSchema } from './ids';

export * from './sse-names';

/**
 * How a stream carries the station list: `full` (the spec's `stations` event, the whole list) or
 * `delta` (`stations-delta` events, opted into with GET /sse/events?stations=delta).
 */
export const SseQuerySchema = z.object({
  stations: z.enum(['full', 'delta']).optional(),
  /**
   * Delta form only: the digest (stationListDigestText, SHA-256, first
   * STATION_LIST_DIGEST_HEX_LENGTH hex digits) of the list the client already holds, from GET
   * /v1/stations. When the list at the stream's current version draws the same, the stream opens
   * with a `kept` event instead of the whole list.
   */
  known: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
});
export type SseStationsForm = NonNullable<z.infer<typeof SseQuerySchema>['stations']>;

export const NewPacketEventSchema = z.object({
  /** the satellite's display name (what the ticker shows) */
  satellite: z.string(),
  /** the satellite's name (key of /v1/satellite/{name}) */
  satelliteName: z.string(),
  packetId: z.string(),
  satPos: SatPosSchema,
  /** ids `{name}@{userId}` of the receiving stations */
  stations: z.array(StationIdSchema),
});
export type NewPacketEvent = z.infer<typeof NewPacketEventSchema>;

/** The full station list, as GET /v1/stations returns it. */
export const StationsEventSchema = z.array(StationListItemSchema);
export type StationsEvent = z.infer<typeof StationsEventSchema>;

/**
 * The station list as changes (`?stations=delta`). Each event has the next `seq` of its stream; a
 * `full` one carries the whole list in `changed` (on connect, and after the server had to skip an
 * event for this client) and replaces what the client holds. A client that sees a `seq` other than
 * the previous one plus one has missed something and reconnects, which brings a full list.
 */
export const StationsDeltaEventSchema = z.object({
  seq: z.number().int().nonnegative(),
  full: z.boolean(),
  changed: z.array(StationListItemSchema),
  /** ids `{name}@{userId}` of stations no longer listed */
  removed: z.array(StationIdSchema),
  /**
   * Only on the first event of a stream opened with `known`, instead of the whole list: the list at
   * `seq` is the one the client said it holds with `changed` and `removed` applied (both empty when
   * it is current; else what changed since a recent version that drew as it). `full` is true. A
   * client that did not just open such a stream reopens one without `known`.
   */
  kept: z.literal(true).optional(),
});
export type StationsDeltaEvent = z.infer<typeof StationsDeltaEventSchema>;
